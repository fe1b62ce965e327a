// code-server (VS Code's web build, from npm) for the end-to-end test:
// one process per test file, every directory it writes (user data,
// extensions, XDG config/data/cache, HOME) inside the test's temporary
// folder, bound to a free loopback port with no authentication.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const e2eDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const extDir = path.resolve(e2eDir, '..');
export const repoRoot = path.resolve(extDir, '..', '..');

function need(file, what, fix) {
  if (!fs.existsSync(file)) {
    // Never a skip: a missing piece fails the run, in CI and locally.
    throw new Error(`${what} is missing: ${file} (${fix})`);
  }
  return file;
}

/** What the test runs, each checked to exist. */
export function inputs() {
  const version = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8')).version;
  return {
    parley: need(path.resolve(process.env.PARLEY_BIN ?? path.join(repoRoot, 'bin', 'parley')), 'the parley binary', 'make build'),
    vsix: need(path.join(extDir, `parley-${version}.vsix`), 'the packaged extension', 'make vscode'),
    codeServer: need(path.join(e2eDir, 'node_modules', '.bin', 'code-server'), 'code-server', 'make vscode-e2e installs it'),
    chromium: need(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', 'Chromium', 'apt-get install chromium'),
  };
}

/**
 * The directories and environment of one code-server under tmp. The
 * environment is the extension host's, so `parley serve` inherits it:
 * no real config files or keys, a temporary data directory.
 */
export function layout(tmp, extraEnv) {
  const d = {
    home: path.join(tmp, 'home'),
    userData: path.join(tmp, 'user-data'),
    extensions: path.join(tmp, 'extensions'),
    log: path.join(tmp, 'code-server.log'),
  };
  for (const dir of [d.home, d.userData, d.extensions]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(ANTHROPIC|OPENAI|PARLEY|VSCODE)_/.test(k) || k === 'GITHUB_TOKEN') {
      delete env[k];
    }
  }
  Object.assign(env, {
    HOME: d.home,
    XDG_CONFIG_HOME: path.join(d.home, '.config'),
    XDG_DATA_HOME: path.join(d.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(d.home, '.cache'),
    ...extraEnv,
  });
  return { ...d, env };
}

function dirArgs(l) {
  return ['--user-data-dir', l.userData, '--extensions-dir', l.extensions];
}

/** code-server --install-extension FILE.vsix into the layout. */
export function installExtension(bin, vsix, l) {
  const r = spawnSync(bin, [...dirArgs(l), '--install-extension', vsix], { env: l.env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) {
    throw new Error(`code-server --install-extension ${vsix}: exit ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

/** Writes the user's settings.json (code-server's User folder). */
export function writeUserSettings(l, settings) {
  const dir = path.join(l.userData, 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

/**
 * Starts code-server on 127.0.0.1 with an OS-chosen port and resolves
 * with its URL once it listens. stop() ends its whole process group (the
 * extension host and `parley serve` with it).
 */
export async function startCodeServer(bin, l, timeoutMs = 60_000) {
  const log = fs.openSync(l.log, 'a');
  const child = spawn(
    bin,
    [
      ...dirArgs(l),
      '--auth', 'none',
      '--bind-addr', '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
    ],
    { env: l.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const group = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {} // already gone
  };
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`code-server did not listen within ${timeoutMs} ms; its log: ${l.log}`)), timeoutMs);
    child.stdout.on('data', (b) => {
      fs.writeSync(log, b);
      seen += b.toString();
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr.on('data', (b) => fs.writeSync(log, b));
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${code ?? signal}) before listening; its log: ${l.log}`));
    });
  }).catch((e) => {
    group('SIGKILL');
    throw e;
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        group('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
      // Whatever of the group outlived code-server (the extension host,
      // parley serve) goes too.
      group('SIGKILL');
      fs.closeSync(log);
    },
  };
}
