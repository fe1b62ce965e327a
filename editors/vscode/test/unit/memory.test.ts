import { describe, expect, it } from 'vitest';
import { clip, memoryDetail, memoryItem, parseImportance, parseTags, statsLines } from '../../src/memoryModel';
import { type MemoryUI, type PickItem, MemoryController } from '../../src/memoryView';
import type { Memory } from '../../src/protocol';

const fact: Memory = {
  ref: '1',
  id: 1,
  content: 'Releases are cut\non Fridays',
  type: 'decision',
  importance: 8,
  tags: ['release'],
  scope: 'workspace',
  created: '2026-11-01T10:00:00Z',
};
const stale: Memory = {
  ref: 'u2',
  id: 2,
  content: 'Run reads the migrations table',
  type: 'code_pattern',
  importance: 5,
  anchors: [{ path: 'db/migrate.go', symbol: 'Run', hash: 'ab' }],
  scope: 'user',
  created: '2026-11-02T10:00:00Z',
  updated: '2026-11-03T10:00:00Z',
  stale: ['db/migrate.go#Run changed'],
};

describe('memory model', () => {
  it('shows type, importance, tags and the stale marker', () => {
    expect(memoryItem(fact)).toEqual({
      label: 'Releases are cut on Fridays',
      description: '[1] · decision · ★8 · #release',
      tooltip: 'Releases are cut\non Fridays\n\ndecision, importance 8, workspace memory 1\ntags: release',
      icon: 'law',
      context: 'memory',
    });
    const v = memoryItem(stale);
    expect(v.description).toBe('[u2] · code_pattern · ★5 · user · STALE');
    expect(v.icon).toBe('warning');
    expect(v.context).toBe('memory.stale');
    expect(v.tooltip).toContain('anchor: db/migrate.go#Run');
    expect(v.tooltip).toContain('stale: db/migrate.go#Run changed since it was written');
  });

  it('renders the detail and the stats', () => {
    const d = memoryDetail(stale);
    expect(d).toContain('# Memory u2');
    expect(d).toContain('- anchor: `db/migrate.go#Run`');
    expect(d).toContain('- written 2026-11-02, edited 2026-11-03');
    expect(d).toContain('**Stale:** db/migrate.go#Run changed');
    expect(
      statsLines([
        { scope: 'workspace', available: true, count: 3, types: { fact: 2, decision: 1 }, stale: 1 },
        { scope: 'user', available: false, count: 0, types: {}, stale: 0 },
      ]),
    ).toEqual(['workspace memories: 3 (2 fact, 1 decision), 1 stale', 'user memories: unavailable']);
  });

  it('parses what the user types', () => {
    expect(parseTags('a, b  c,a')).toEqual(['a', 'b', 'c']);
    expect(parseImportance(' 7 ')).toBe(7);
    expect(parseImportance('11')).toBeUndefined();
    expect(parseImportance('2.5')).toBeUndefined();
    expect(parseImportance('')).toBeUndefined();
    expect(clip('x'.repeat(100), 10)).toBe('xxxxxxxxx…');
  });
});

/** A scripted UI: answers are consumed in order; what it was asked is kept. */
function fakeUI(answers: (string | boolean | undefined)[]) {
  const asked: string[] = [];
  const said: string[] = [];
  const docs: string[] = [];
  const next = () => answers.shift();
  const ui: MemoryUI = {
    input: async (o) => {
      asked.push(`input ${o.title} [${o.value ?? ''}]`);
      return next() as string | undefined;
    },
    pick: async (items: PickItem[], o) => {
      asked.push(`pick ${o.title}: ${items.map((i) => i.value).join(',')}`);
      const v = next();
      return items.find((i) => i.value === v);
    },
    confirm: async (m) => {
      asked.push(`confirm ${m}`);
      return next() === true;
    },
    info: (m) => said.push(m),
    error: (m) => said.push('error: ' + m),
    showMarkdown: (t) => docs.push(t),
  };
  return { ui, asked, said, docs };
}

function fakeClient(list: Memory[]) {
  const calls: [string, unknown][] = [];
  return {
    calls,
    client: {
      sendRequest: async <R>(method: string, params: any): Promise<R> => {
        calls.push([method, params]);
        switch (method) {
          case 'parley/memoryList':
            return { memories: params?.stale ? list.filter((m) => m.stale) : list } as R;
          case 'parley/memorySearch':
            return { memories: list.filter((m) => m.content.includes(params.query)) } as R;
          case 'parley/memoryShow':
            return { memory: list.find((m) => m.ref === params.id) } as R;
          case 'parley/memoryForget':
            return { memory: list.find((m) => m.ref === params.id) } as R;
          case 'parley/memoryAdd':
            return { memory: { ...params, ref: '3', id: 3 } } as R;
          case 'parley/memoryEdit':
            if (params.importance === 11) {
              throw new Error('importance 11 is outside 1-10');
            }
            return { memory: { ...list.find((m) => m.ref === params.id), ...params, ref: params.id } } as R;
        }
        throw new Error('unexpected ' + method);
      },
    },
  };
}

describe('memory controller', () => {
  it('lists, searches and shows stale memories, with the view message', async () => {
    const { client, calls } = fakeClient([fact, stale]);
    const { ui } = fakeUI(['Fridays', '']);
    const messages: (string | undefined)[] = [];
    const c = new MemoryController({ client: () => client, ui, setMessage: (t) => messages.push(t) });
    await c.refresh();
    expect(c.getChildren().map((m) => m.ref)).toEqual(['1', 'u2']);
    const item = c.getTreeItem(stale);
    expect(item.contextValue).toBe('memory.stale');
    expect(item.command?.arguments).toEqual([stale]);
    await c.search();
    expect(c.getChildren().map((m) => m.ref)).toEqual(['1']);
    expect(messages.at(-1)).toBe('1 memory matching "Fridays"');
    await c.search(); // empty words: back to the list
    expect(c.getChildren()).toHaveLength(2);
    await c.toggleStale();
    expect(c.getChildren().map((m) => m.ref)).toEqual(['u2']);
    expect(messages.at(-1)).toBe('1 stale: edit to confirm, or forget.');
    expect(calls.map((x) => x[0])).toEqual([
      'parley/memoryList',
      'parley/memorySearch',
      'parley/memoryList',
      'parley/memoryList',
    ]);
    expect(calls.at(-1)![1]).toEqual({ stale: true });
  });

  it('adds a memory through four questions, and stops at Escape', async () => {
    const { client, calls } = fakeClient([]);
    const { ui, asked, said } = fakeUI(['Prefers tabs', 'preference', '7', 'user', 'Never mind', undefined]);
    const c = new MemoryController({ client: () => client, ui });
    await c.add();
    expect(calls[0]).toEqual(['parley/memoryAdd', { content: 'Prefers tabs', type: 'preference', importance: 7, scope: 'user' }]);
    expect(said).toEqual(['parley: remembered as 3.']);
    expect(asked[2]).toBe('input Add a memory (3/4): importance [5]');
    calls.length = 0;
    await c.add(); // Escape at the type
    expect(calls).toEqual([]);
  });

  it('edits one field, forgets only after confirmation, and reports server errors', async () => {
    const { client, calls } = fakeClient([fact, stale]);
    const { ui, asked, said, docs } = fakeUI(['importance', '9', 'confirm', 'importance', '11', false, true]);
    const c = new MemoryController({ client: () => client, ui });
    await c.edit(fact);
    expect(calls[0]).toEqual(['parley/memoryEdit', { id: '1', importance: 9 }]);
    calls.length = 0;
    await c.edit(stale); // "confirm as still true": no field changes, anchors re-hashed
    expect(calls[0]).toEqual(['parley/memoryEdit', { id: 'u2' }]);
    calls.length = 0;
    await c.edit(fact); // importance 11 is refused before any request
    expect(calls).toEqual([]);
    expect(said.at(-1)).toBe('error: parley: importance must be a whole number from 1 to 10, not "11".');
    await c.forget(fact); // declined
    expect(calls).toEqual([]);
    expect(asked.at(-1)).toBe('confirm Forget memory 1?');
    await c.forget(fact);
    expect(calls[0]).toEqual(['parley/memoryForget', { id: '1' }]);
    expect(said).toContain('parley: forgot memory 1.');
    await c.show(stale);
    expect(docs[0]).toContain('# Memory u2');
  });

  it('says when the server is not running', async () => {
    const { ui, said } = fakeUI([]);
    const messages: (string | undefined)[] = [];
    const c = new MemoryController({ client: () => undefined, ui, setMessage: (t) => messages.push(t) });
    await c.refresh();
    expect(said).toEqual(['error: parley: the language server is not running.']);
    expect(messages).toEqual(['Memories are unavailable (is the server running?).']);
  });
});
