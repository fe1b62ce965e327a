// Writes a txtar archive (golang.org/x/tools/txtar's format, as the Go
// tests' internal/fixture reads it) into a directory, so this test opens
// the same fixture workspace as the server's tests. The format is a
// comment followed by files, each introduced by a line "-- NAME --"; a
// dozen lines of parsing do not justify a dependency.

import * as fs from 'node:fs';
import * as path from 'node:path';

const marker = /^-- (.+) --$/;

/** Parses a txtar archive into {name, data} files. */
export function parseTxtar(text) {
  const files = [];
  let cur;
  for (const line of text.split(/(?<=\n)/)) {
    const m = marker.exec(line.replace(/\r?\n$/, ''));
    if (m) {
      cur = { name: m[1].trim(), data: '' };
      files.push(cur);
    } else if (cur) {
      cur.data += line;
    }
  }
  return files;
}

/** Writes the archive's files under dir; names may not leave it. */
export function extractTxtar(archive, dir) {
  for (const f of parseTxtar(fs.readFileSync(archive, 'utf8'))) {
    const dest = path.resolve(dir, f.name);
    if (!dest.startsWith(path.resolve(dir) + path.sep)) {
      throw new Error(`${archive}: file ${f.name} is outside the workspace`);
    }
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, f.data);
  }
}
