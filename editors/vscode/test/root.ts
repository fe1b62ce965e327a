// The extension's directory (editors/vscode), found from this file's
// location so the helpers also work when bundled into out/.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'parley') {
      return dir;
    }
    const up = path.dirname(dir);
    if (up === dir) {
      throw new Error(`editors/vscode not found above ${start}`);
    }
    dir = up;
  }
}

export const root = findRoot(__dirname);
