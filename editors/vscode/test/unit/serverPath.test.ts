import { describe, expect, it } from 'vitest';
import { bundledBinary, resolveServerCommand } from '../../src/serverPath';

const base = { extensionPath: '/ext', platform: 'linux' as NodeJS.Platform, homeDir: '/home/me', workspaceFolder: '/work/shop' };

describe('which parley to start', () => {
  it('parley.path first', () => {
    expect(resolveServerCommand({ ...base, configured: '/opt/parley/bin/parley', isExecutable: () => true })).toEqual({
      command: '/opt/parley/bin/parley',
      args: ['serve'],
      source: 'setting',
    });
  });

  it('expands ~ and ${userHome}, resolves relative paths against the workspace folder', () => {
    expect(resolveServerCommand({ ...base, configured: '~/go/bin/parley', isExecutable: () => false }).command).toBe('/home/me/go/bin/parley');
    expect(resolveServerCommand({ ...base, configured: '${userHome}/bin/parley', isExecutable: () => false }).command).toBe('/home/me/bin/parley');
    expect(resolveServerCommand({ ...base, configured: './bin/parley', isExecutable: () => false }).command).toBe('/work/shop/bin/parley');
    // A bare name is looked up on PATH by the OS.
    expect(resolveServerCommand({ ...base, configured: 'parley-dev', isExecutable: () => false }).command).toBe('parley-dev');
  });

  it('then the binary bundled in the extension', () => {
    const seen: string[] = [];
    const r = resolveServerCommand({ ...base, configured: '', isExecutable: (p) => (seen.push(p), p === '/ext/bin/parley') });
    expect(r).toEqual({ command: '/ext/bin/parley', args: ['serve'], source: 'bundled' });
    expect(seen).toEqual(['/ext/bin/parley']);
  });

  it('then parley on PATH', () => {
    expect(resolveServerCommand({ ...base, configured: undefined, isExecutable: () => false })).toEqual({ command: 'parley', args: ['serve'], source: 'PATH' });
    expect(resolveServerCommand({ ...base, platform: 'win32', configured: '', isExecutable: () => false }).command).toBe('parley.exe');
  });

  it('names the Windows binary parley.exe', () => {
    expect(bundledBinary('/ext', 'win32')).toMatch(/bin[\\/]parley\.exe$/);
  });
});
