import { describe, expect, it } from 'vitest';
import { completion, label, matchCommands, menuKey } from '../../src/webview/promptMenu';
import type { PromptCommand } from '../../src/protocol';

const cmds: PromptCommand[] = [
  { name: 'explain', description: 'Explain a file', argumentHint: 'FILE', source: 'user' },
  { name: 'frontend:review', description: 'Review the frontend', source: 'workspace' },
  { name: 'review', description: 'Review a change', argumentHint: '[focus]', source: 'workspace', shell: true, needsApproval: true },
];

describe('the "/" menu', () => {
  it('offers every command for "/" and filters by what follows', () => {
    expect(matchCommands('/', cmds)?.map((c) => c.name)).toEqual(['explain', 'frontend:review', 'review']);
    expect(matchCommands('/Re', cmds)?.map((c) => c.name)).toEqual(['review', 'frontend:review']);
    expect(matchCommands('/front', cmds)?.map((c) => c.name)).toEqual(['frontend:review']);
    expect(matchCommands('/zzz', cmds)).toEqual([]);
  });

  it('is not offered once arguments start or for other text', () => {
    expect(matchCommands('/review a.go', cmds)).toBeUndefined();
    expect(matchCommands('why /review', cmds)).toBeUndefined();
    expect(matchCommands('', cmds)).toBeUndefined();
  });

  it('completes a command ready for its arguments and labels it', () => {
    expect(completion(cmds[0])).toBe('/explain ');
    expect(label(cmds[0])).toEqual({ name: '/explain', hint: 'FILE', description: 'Explain a file' });
    expect(label(cmds[2]).description).toMatch(/not approved: run parley commands approve/);
  });

  it('moves, accepts and closes with the keys', () => {
    expect(menuKey('ArrowDown', 2, 3)).toEqual({ selected: 0 });
    expect(menuKey('ArrowUp', 0, 3)).toEqual({ selected: 2 });
    expect(menuKey('Tab', 1, 3)).toBe('accept');
    expect(menuKey('Enter', 1, 3)).toBe('accept');
    expect(menuKey('Escape', 1, 3)).toBe('close');
    expect(menuKey('a', 1, 3)).toBeNull();
  });
});
