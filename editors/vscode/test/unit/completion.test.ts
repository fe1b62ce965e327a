import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import {
  ACCEPT_COMMAND,
  type CompletionClient,
  CompletionProvider,
  CompletionState,
  STATE_KEY,
  completionStatus,
  parseMinutes,
} from '../../src/completion';
import { contextMarkdown, showCompletionContext } from '../../src/completionContext';
import { fillCompletionCapabilities } from '../../src/completionCommands';
import type { CompletionContextResult, LspRange } from '../../src/protocol';

interface Sent {
  method: string;
  params: any;
  token?: vscode.CancellationToken;
}

/** A language client whose answers the test scripts, recording what it was sent. */
class FakeClient implements CompletionClient {
  requests: Sent[] = [];
  notifications: { method: string; params: any }[] = [];
  answer: (s: Sent) => Promise<unknown> = async () => ({ items: [] });

  async sendRequest<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R> {
    const s = { method, params, token };
    this.requests.push(s);
    return (await this.answer(s)) as R;
  }
  async sendNotification(method: string, params?: unknown): Promise<void> {
    this.notifications.push({ method, params });
  }
  readonly code2ProtocolConverter = {
    asUri: (u: vscode.Uri) => u.toString(),
    asPosition: (p: vscode.Position) => ({ line: p.line, character: p.character }),
    asRange: (r: vscode.Range) => ({ start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } }),
  };
  readonly protocol2CodeConverter = {
    asRange: (r: LspRange) => new vscode.Range(new vscode.Position(r.start.line, r.start.character), new vscode.Position(r.end.line, r.end.character)),
  };
}

const doc = { uri: { toString: () => 'file:///home/dev/shop/cart/cart.go' }, languageId: 'go' } as unknown as vscode.TextDocument;
const pos = new vscode.Position(12, 8);
const automatic: vscode.InlineCompletionContext = { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined };
const invoked: vscode.InlineCompletionContext = { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined };
const range = (l: number, a: number, b: number): LspRange => ({ start: { line: l, character: a }, end: { line: l, character: b } });
const accepted = (id: string) => ({ title: '', command: 'parley.completion.accepted', arguments: [{ id }] });

function setup(active = true) {
  const client = new FakeClient();
  const logs: string[] = [];
  let on = active;
  const provider = new CompletionProvider({ client: () => client, active: () => on, log: (m) => logs.push(m) });
  return { client, provider, logs, setActive: (v: boolean) => (on = v) };
}

const token = () => new vscode.CancellationTokenSource();
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('inline completion provider', () => {
  it('sends LSP 3.18 InlineCompletionParams with the editor’s token', async () => {
    const { client, provider } = setup();
    const t = token();
    await provider.provideInlineCompletionItems(doc, pos, automatic, t.token);
    await provider.provideInlineCompletionItems(doc, pos, invoked, t.token);
    await provider.provideInlineCompletionItems(
      doc,
      pos,
      {
        triggerKind: vscode.InlineCompletionTriggerKind.Automatic,
        selectedCompletionInfo: { range: new vscode.Range(new vscode.Position(12, 4), new vscode.Position(12, 8)), text: 'Total' },
      },
      t.token,
    );
    expect(client.requests.map((r) => r.method)).toEqual(Array(3).fill('textDocument/inlineCompletion'));
    expect(client.requests[0].params).toEqual({
      textDocument: { uri: 'file:///home/dev/shop/cart/cart.go' },
      position: { line: 12, character: 8 },
      context: { triggerKind: 2 },
    });
    // VS Code counts trigger kinds from 0; LSP 3.18 from 1.
    expect(client.requests[1].params.context).toEqual({ triggerKind: 1 });
    expect(client.requests[2].params.context).toEqual({ triggerKind: 2, selectedCompletionInfo: { range: range(12, 4, 8), text: 'Total' } });
    expect(client.requests.every((r) => r.token === t.token)).toBe(true);
  });

  it('maps items: text, converted range, the acceptance command, snippets', async () => {
    const { client, provider } = setup();
    client.answer = async () => ({
      items: [
        { insertText: 'sum + Fee()', range: range(12, 8, 8), command: accepted('c7'), filterText: 'sum' },
        { insertText: { kind: 'snippet', value: 'x := ${1:0}' }, range: range(12, 4, 8) },
      ],
    });
    const list = (await provider.provideInlineCompletionItems(doc, pos, automatic, token().token))!;
    expect(list).toBeInstanceOf(vscode.InlineCompletionList);
    const [a, b] = list.items;
    expect(a.insertText).toBe('sum + Fee()');
    expect(a.range).toEqual(new vscode.Range(new vscode.Position(12, 8), new vscode.Position(12, 8)));
    expect(a.filterText).toBe('sum');
    // Our command forwards the server's, so that acceptance reaches it.
    expect(a.command).toEqual({ title: 'parley: completion accepted', command: ACCEPT_COMMAND, arguments: [accepted('c7')] });
    expect(b.insertText).toBeInstanceOf(vscode.SnippetString);
    expect((b.insertText as vscode.SnippetString).value).toBe('x := ${1:0}');
    expect(b.command).toBeUndefined();
    expect(provider.lastCompletion()).toEqual({ id: 'c7', uri: 'file:///home/dev/shop/cart/cart.go', languageId: 'go' });

    // A bare array is a valid result too; null is none.
    client.answer = async () => [{ insertText: 'x', command: accepted('c8') }];
    expect((await provider.provideInlineCompletionItems(doc, pos, automatic, token().token))!.items.map((i) => i.insertText)).toEqual(['x']);
    client.answer = async () => null;
    expect(await provider.provideInlineCompletionItems(doc, pos, automatic, token().token)).toBeUndefined();
  });

  it('forwards the acceptance as the server’s workspace/executeCommand', async () => {
    const { client, provider } = setup();
    client.answer = async () => ({});
    await provider.accepted(accepted('c7'));
    expect(client.requests).toEqual([
      { method: 'workspace/executeCommand', params: { command: 'parley.completion.accepted', arguments: [{ id: 'c7' }] }, token: undefined },
    ]);
  });

  it('honours cancellation: none sent once cancelled, none shown when cancelled while waiting', async () => {
    const { client, provider, logs } = setup();
    const before = token();
    before.cancel();
    expect(await provider.provideInlineCompletionItems(doc, pos, automatic, before.token)).toBeUndefined();
    expect(client.requests).toHaveLength(0);

    // The server answers after the editor moved on (the client sent
    // $/cancelRequest on the same token): nothing is shown.
    const during = token();
    let release!: () => void;
    client.answer = (s) =>
      new Promise((resolve) => {
        release = () => resolve({ items: [{ insertText: 'stale', command: accepted('c1') }] });
        s.token!.onCancellationRequested(() => undefined);
      });
    const p = provider.provideInlineCompletionItems(doc, pos, automatic, during.token);
    await tick();
    during.cancel();
    release();
    expect(await p).toBeUndefined();

    // A RequestCancelled error is an outcome, not a problem to log.
    client.answer = async () => {
      throw Object.assign(new Error('cancelled'), { code: -32800 });
    };
    expect(await provider.provideInlineCompletionItems(doc, pos, automatic, token().token)).toBeUndefined();
    // Nor is a file outside the workspace folders (InvalidParams).
    client.answer = async () => {
      throw Object.assign(new Error('outside the workspace folders'), { code: -32602 });
    };
    expect(await provider.provideInlineCompletionItems(doc, pos, automatic, token().token)).toBeUndefined();
    expect(logs).toEqual([]);
    client.answer = async () => {
      throw new Error('boom');
    };
    await provider.provideInlineCompletionItems(doc, pos, automatic, token().token);
    expect(logs).toEqual(['textDocument/inlineCompletion: boom']);
  });

  it('asks nothing when off or snoozed', async () => {
    const { client, provider, setActive } = setup(false);
    expect(await provider.provideInlineCompletionItems(doc, pos, invoked, token().token)).toBeUndefined();
    expect(client.requests).toHaveLength(0);
    setActive(true);
    await provider.provideInlineCompletionItems(doc, pos, invoked, token().token);
    expect(client.requests).toHaveLength(1);
  });

  it('stops asking a server that has no textDocument/inlineCompletion', async () => {
    const { client, provider, logs } = setup();
    client.answer = async () => {
      throw Object.assign(new Error('Unhandled method textDocument/inlineCompletion'), { code: -32601 });
    };
    expect(await provider.provideInlineCompletionItems(doc, pos, automatic, token().token)).toBeUndefined();
    expect(await provider.provideInlineCompletionItems(doc, pos, automatic, token().token)).toBeUndefined();
    expect(client.requests).toHaveLength(1);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/does not answer textDocument\/inlineCompletion/);
  });

  it('reports shown, partial and dismissed as parley/completionEvent, each once', async () => {
    const { client, provider } = setup();
    client.answer = async () => ({ items: [{ insertText: 'sum + Fee()', range: range(12, 8, 8), command: accepted('c7') }] });
    const [item] = (await provider.provideInlineCompletionItems(doc, pos, automatic, token().token))!.items;
    provider.handleDidShowCompletionItem(item);
    provider.handleDidShowCompletionItem(item); // shown again while typing through it
    // VS Code 1.100 calls with the length, then with {kind, acceptedLength}.
    provider.handleDidPartiallyAcceptCompletionItem(item, 4);
    provider.handleDidPartiallyAcceptCompletionItem(item, { acceptedLength: 4 });
    await tick();
    provider.handleDidPartiallyAcceptCompletionItem(item, 6);
    await tick();
    provider.handleDidRejectCompletionItem(item);
    provider.handleEndOfLifetime(item, { kind: 1 });
    await tick();
    expect(client.notifications).toEqual([
      { method: 'parley/completionEvent', params: { id: 'c7', event: 'shown' } },
      { method: 'parley/completionEvent', params: { id: 'c7', event: 'partial', chars: 4 } },
      { method: 'parley/completionEvent', params: { id: 'c7', event: 'partial', chars: 6 } },
      { method: 'parley/completionEvent', params: { id: 'c7', event: 'dismissed' } },
    ]);
  });

  it('sends no dismissal for an accepted or merely superseded item', async () => {
    const { client, provider } = setup();
    client.answer = async (s) => (s.method === 'workspace/executeCommand' ? null : { items: [{ insertText: 'a', command: accepted('c1') }] });
    const [a] = (await provider.provideInlineCompletionItems(doc, pos, automatic, token().token))!.items;
    await provider.accepted(a.command!.arguments![0] as any);
    provider.handleEndOfLifetime(a, { kind: 0 });
    provider.handleDidRejectCompletionItem(a);
    client.answer = async () => ({ items: [{ insertText: 'b', command: accepted('c2') }] });
    const [b] = (await provider.provideInlineCompletionItems(doc, pos, automatic, token().token))!.items;
    provider.handleEndOfLifetime(b, { kind: 2 }); // ignored: the user typed on
    await tick();
    expect(client.notifications).toEqual([]);
  });
});

describe('the on/off/snoozed switch', () => {
  function memento() {
    const m = new Map<string, unknown>();
    return { store: m, get: <T>(k: string) => m.get(k) as T | undefined, update: async (k: string, v: unknown) => void m.set(k, v) };
  }

  it('toggles, snoozes, and a snooze runs out', async () => {
    let now = 1_000_000;
    const mem = memento();
    const s = new CompletionState(mem, () => now);
    expect(s.mode()).toBe('on');
    expect(await s.toggle()).toBe('off');
    expect(mem.store.get(STATE_KEY)).toEqual({ mode: 'off' });
    expect(await s.toggle()).toBe('on');
    await s.snooze(15);
    expect(s.mode()).toBe('snoozed');
    expect(s.remaining()).toBe(15 * 60_000);
    now += 14 * 60_000;
    expect(completionStatus(s.mode(), s.remaining(), true).text).toBe('$(clock) completion snoozed 1 min');
    now += 60_000;
    expect(s.mode()).toBe('on');
    await s.snooze(5);
    expect(await s.toggle()).toBe('on'); // a snoozed switch toggles back on
    // A stored state from another version reads as on.
    mem.store.set(STATE_KEY, { mode: 'sleeping' });
    expect(s.mode()).toBe('on');
  });

  it('shows the state in the status bar', () => {
    expect(completionStatus('on', 0, true).text).toBe('$(sparkle) completion on');
    expect(completionStatus('off', 0, true).text).toBe('$(circle-slash) completion off');
    expect(completionStatus('snoozed', 15 * 60_000, true)).toMatchObject({ text: '$(clock) completion snoozed 15 min' });
    expect(completionStatus('on', 0, false)).toMatchObject({ text: '$(circle-slash) completion off' });
    expect(completionStatus('on', 0, false).tooltip).toMatch(/parley\.completion\.enabled/);
  });

  it('reads the minutes typed in the snooze box', () => {
    expect(parseMinutes('')).toBe(15);
    expect(parseMinutes(' 30 ')).toBe(30);
    expect(parseMinutes('0')).toBeUndefined();
    expect(parseMinutes('soon')).toBeUndefined();
    expect(parseMinutes(undefined)).toBeUndefined();
  });
});

describe('parley: Show Completion Context', () => {
  const ctx: CompletionContextResult = {
    id: 'c7',
    path: 'cart/cart.go',
    prefix: 'func (c *Cart) Total() int {\n\tsum := 0\n\treturn ',
    suffix: '\n}\n',
    context: [{ path: 'price/price.go', start_line: 3, end_line: 5, text: 'func Of(it Item) int {\n\treturn it.Cents\n}', why: 'definition of price.Of' }],
    tokens: 1234,
  };

  function ui() {
    const got = { shown: [] as { markdown: string; id: unknown }[], info: [] as string[], warn: [] as string[] };
    return {
      got,
      ui: {
        show: async (markdown: string, id: string | number | undefined) => void got.shown.push({ markdown, id }),
        info: (m: string) => void got.info.push(m),
        warn: (m: string) => void got.warn.push(m),
      },
    };
  }

  it('asks for the last item and renders the snippets, prefix and suffix', async () => {
    const client = new FakeClient();
    client.answer = async () => ctx;
    const { got, ui: u } = ui();
    await showCompletionContext(client, { id: 'c7', uri: 'file:///x/cart.go', languageId: 'go' }, u);
    expect(client.requests[0]).toMatchObject({ method: 'parley/completionContext', params: { id: 'c7' } });
    expect(got.shown).toHaveLength(1);
    const md = got.shown[0].markdown;
    expect(got.shown[0].id).toBe('c7');
    expect(md).toContain('# Context of completion c7');
    expect(md).toContain('`cart/cart.go` · 1,234 tokens · 1 context snippet');
    expect(md).toContain('### `price/price.go:3-5` — definition of price.Of');
    expect(md).toContain('```go\nfunc Of(it Item) int {');
    expect(md).toContain('## Prefix\n\n```go\nfunc (c *Cart) Total() int {');
    expect(md).toContain('## Suffix');
  });

  it('says so when the server has no parley/completionContext, or no completion yet', async () => {
    const client = new FakeClient();
    client.answer = async () => {
      throw Object.assign(new Error('Unhandled method parley/completionContext'), { code: -32601 });
    };
    const a = ui();
    await showCompletionContext(client, undefined, a.ui);
    expect(client.requests[0].params).toEqual({});
    expect(a.got.warn[0]).toMatch(/does not report the context of its completions \(no parley\/completionContext\)/);

    client.answer = async (s) => {
      if (s.params.id) {
        throw Object.assign(new Error('no completion "old" was offered in this session'), { code: -32602 });
      }
      return null;
    };
    const b = ui();
    await showCompletionContext(client, { id: 'old', uri: '', languageId: 'go' }, b.ui);
    // The server forgot that one: its last one is asked for, then.
    expect(client.requests.slice(1).map((r) => r.params)).toEqual([{ id: 'old' }, {}]);
    expect(b.got.info[0]).toMatch(/no completion yet/);

    const c = ui();
    await showCompletionContext(undefined, undefined, c.ui);
    expect(c.got.warn[0]).toMatch(/not running/);
  });

  it('fences code that contains backticks', () => {
    const md = contextMarkdown({ prefix: 'const s = ```x```;\n', suffix: '' }, { languageId: 'typescript' });
    expect(md).toContain('````typescript\nconst s = ```x```;\n````');
    expect(md).toContain('## Suffix\n\n(empty)');
  });
});

describe('client capabilities', () => {
  it('says the client takes inline completions', () => {
    const caps: { textDocument?: any } = { textDocument: { hover: {} } };
    fillCompletionCapabilities(caps);
    expect(caps.textDocument).toEqual({ hover: {}, inlineCompletion: { dynamicRegistration: false } });
  });
});
