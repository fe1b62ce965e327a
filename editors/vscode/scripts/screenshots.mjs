#!/usr/bin/env node
// npm run screenshots: bundles test/browser/screenshots.ts (TypeScript, the
// same harness as the browser tests) and runs it. Needs /usr/bin/chromium
// (or CHROMIUM_PATH) and a built page (npm run build).
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'out', 'screenshots.cjs');
await esbuild.build({
  entryPoints: [path.join(root, 'test', 'browser', 'screenshots.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile,
  external: ['playwright-core'],
  logLevel: 'warning',
});
const { main } = createRequire(import.meta.url)(outfile);
for (const f of await main()) {
  console.log(`wrote ${f}`);
}
