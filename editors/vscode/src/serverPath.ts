// Which parley binary to start. Pure (file checks are injected).

import * as path from 'path';

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the command came from, for the output channel and errors. */
  source: 'setting' | 'bundled' | 'PATH';
}

export interface ResolveOptions {
  /** parley.path as configured ("" when unset). */
  configured: string | undefined;
  extensionPath: string;
  platform: NodeJS.Platform;
  homeDir?: string;
  /** The first workspace folder's path: relative settings resolve against it. */
  workspaceFolder?: string;
  /** Whether an executable file exists at an absolute path. */
  isExecutable: (p: string) => boolean;
}

export function bundledBinary(extensionPath: string, platform: NodeJS.Platform): string {
  return path.join(extensionPath, 'bin', platform === 'win32' ? 'parley.exe' : 'parley');
}

/**
 * parley.path when set (~ and ${userHome} expanded; relative to the first
 * workspace folder), else bin/parley inside the extension when it is
 * there, else "parley" looked up on PATH by the OS.
 */
export function resolveServerCommand(o: ResolveOptions): ServerCommand {
  const args = ['serve'];
  let configured = (o.configured ?? '').trim();
  if (configured !== '') {
    if (o.homeDir) {
      configured = configured.replace(/^~(?=$|[\\/])/, o.homeDir).replace(/\$\{userHome\}/g, o.homeDir);
    }
    if (!path.isAbsolute(configured) && /[\\/]/.test(configured) && o.workspaceFolder) {
      configured = path.resolve(o.workspaceFolder, configured);
    }
    return { command: configured, args, source: 'setting' };
  }
  const bundled = bundledBinary(o.extensionPath, o.platform);
  if (o.isExecutable(bundled)) {
    return { command: bundled, args, source: 'bundled' };
  }
  return { command: o.platform === 'win32' ? 'parley.exe' : 'parley', args, source: 'PATH' };
}
