import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as vscode from 'vscode';
import { type CompletionClient, CompletionProvider } from '../../src/completion';
import {
  type NextEditClient,
  NextEditController,
  type NextEditEditor,
  type NextEditHost,
  type Proposal,
  type RenderPlan,
  planFor,
  shownText,
  staleEdit,
} from '../../src/nextEdit';
import type { LspRange, NextEditResult } from '../../src/protocol';

interface Sent {
  method: string;
  params: any;
  token?: vscode.CancellationToken;
}

/** A language client whose answers the test scripts, recording what it was sent. */
class FakeClient implements NextEditClient {
  requests: Sent[] = [];
  answer: (s: Sent) => Promise<unknown> = async () => ({ edits: [], reason: 'nothing to propose' });

  async sendRequest<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R> {
    const s = { method, params, token };
    this.requests.push(s);
    return (await this.answer(s)) as R;
  }
  nextEdits(): Sent[] {
    return this.requests.filter((r) => r.method === 'parley/nextEdit');
  }
  readonly code2ProtocolConverter = {
    asUri: (u: vscode.Uri) => u.toString(),
    asPosition: (p: vscode.Position) => ({ line: p.line, character: p.character }),
  };
  readonly protocol2CodeConverter = {
    asUri: (s: string) => vscode.Uri.parse(s),
    asRange: (r: LspRange) => new vscode.Range(new vscode.Position(r.start.line, r.start.character), new vscode.Position(r.end.line, r.end.character)),
  };
}

interface Doc {
  uri: vscode.Uri;
  version: number;
  isDirty: boolean;
}
interface Editor extends NextEditEditor {
  document: Doc;
  selection: { active: vscode.Position };
}

const SCALE = 'file:///home/dev/shop/cart/scale.go';
const PRICE = 'file:///home/dev/shop/price/price.go';

const doc = (uri: string, version = 1): Doc => ({ uri: vscode.Uri.parse(uri), version, isDirty: version > 1 });
const editorOf = (d: Doc, line = 3, character = 16): Editor => ({ document: d, selection: { active: new vscode.Position(line, character) } });
const range = (l: number, a: number, b: number): LspRange => ({ start: { line: l, character: a }, end: { line: l, character: b } });
const accepted = (id: string) => ({ title: 'rename n to count: 3 more uses', command: 'parley.nextEdit.accepted', arguments: [{ id }] });

/** The server's answer after `n` was renamed `count` at line 3 (docs/protocol.md, lsp/nextedit_test.go). */
function rename(version: number | null = 6, uri = SCALE): NextEditResult {
  return {
    id: 'e1',
    edits: [
      { textDocument: { uri, version }, range: range(4, 4, 5), newText: 'count' },
      { textDocument: { uri, version }, range: range(5, 10, 11), newText: 'count' },
      { textDocument: { uri, version }, range: range(7, 8, 9), newText: 'count' },
    ],
    why: 'rename n to count: 3 more uses',
    command: accepted('e1'),
  };
}

function setup() {
  const client = new FakeClient();
  const scale = doc(SCALE, 6);
  const state = {
    editor: editorOf(scale) as Editor | undefined,
    docs: [scale] as Doc[],
    active: true,
    showing: false,
    applied: [] as vscode.WorkspaceEdit[],
    applyResult: true,
    opened: [] as { uri: string; at: vscode.Position }[],
    shown: [] as { editor?: NextEditEditor; plan?: RenderPlan }[],
    visible: [] as boolean[],
    logs: [] as string[],
  };
  let controller!: NextEditController;
  const host: NextEditHost = {
    client: () => client,
    active: () => state.active,
    debounceMs: () => 400,
    serves: (d) => d.uri.toString().startsWith('file:'),
    completionShowing: () => state.showing,
    activeEditor: () => state.editor,
    openDocuments: () => state.docs,
    applyEdit: async (edit) => {
      state.applied.push(edit);
      // VS Code reports the change before applyEdit resolves.
      for (const d of state.docs) {
        if ((edit as unknown as vscode.WorkspaceEdit & { edits: { uri: vscode.Uri }[] }).edits.some((e) => e.uri.toString() === d.uri.toString())) {
          d.version++;
          controller.documentChanged({ document: d, contentChanges: [{}] });
        }
      }
      return state.applyResult;
    },
    open: async (uri, at) => {
      state.opened.push({ uri: uri.toString(), at });
      let d = state.docs.find((x) => x.uri.toString() === uri.toString());
      if (!d) {
        d = doc(uri.toString(), 1);
        state.docs.push(d);
      }
      state.editor = editorOf(d, at.line, at.character);
      controller.activeEditorChanged();
    },
    view: {
      show: (editor, plan) => state.shown.push({ editor, plan }),
      setVisible: (v) => state.visible.push(v),
    },
    log: (m) => state.logs.push(m),
  };
  controller = new NextEditController(host);
  /** The user types in the active editor: the version goes up and the change is reported. */
  const type = (reason?: number) => {
    const d = state.editor!.document;
    d.version++;
    controller.documentChanged({ document: d, contentChanges: [{}], reason });
  };
  return { client, controller, state, scale, type };
}

type WorkspaceEditRecord = { edits: { uri: vscode.Uri; range: vscode.Range; newText: string }[] };
const editsOf = (e: vscode.WorkspaceEdit) =>
  (e as unknown as WorkspaceEditRecord).edits.map((x) => `${x.uri.toString()}:${x.range.start.line}:${x.range.start.character}-${x.range.end.character}=${x.newText}`);

describe('next-edit proposals', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks parley/nextEdit with the document’s current version and the cursor, once the user pauses', async () => {
    const { client, state, type } = setup();
    client.answer = async () => ({ edits: [], reason: 'nothing to propose' });
    type(); // version 7
    await vi.advanceTimersByTimeAsync(399);
    expect(client.nextEdits()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.nextEdits()).toHaveLength(1);
    expect(client.nextEdits()[0].params).toEqual({ textDocument: { uri: SCALE, version: 7 }, position: { line: 3, character: 16 } });
    expect(client.nextEdits()[0].token).toBeDefined();
    // No proposal: nothing drawn.
    expect(state.shown).toEqual([]);
    expect(state.visible).toEqual([]);
  });

  it('typing again restarts the wait, and cancels a request already sent (its answer is never shown)', async () => {
    const { client, state, type } = setup();
    type();
    await vi.advanceTimersByTimeAsync(300);
    type();
    await vi.advanceTimersByTimeAsync(300);
    expect(client.nextEdits()).toHaveLength(0);
    let release!: () => void;
    client.answer = () => new Promise((resolve) => (release = () => resolve(rename(8))));
    await vi.advanceTimersByTimeAsync(100);
    expect(client.nextEdits()).toHaveLength(1);
    expect(client.nextEdits()[0].params.textDocument.version).toBe(8);
    const first = client.nextEdits()[0].token!;
    type(); // version 9, while the server works on 8
    expect(first.isCancellationRequested).toBe(true);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.shown).toEqual([]);
    client.answer = async () => rename(9);
    await vi.advanceTimersByTimeAsync(400);
    expect(client.nextEdits()).toHaveLength(2);
    expect(client.nextEdits()[1].params.textDocument.version).toBe(9);
    expect(state.visible).toEqual([true]);
  });

  it('asks nothing for undo and redo, while ghost text shows, or when off (setting, switch)', async () => {
    const { client, state, type } = setup();
    type(vscode.TextDocumentChangeReason.Undo);
    type(vscode.TextDocumentChangeReason.Redo);
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.nextEdits()).toHaveLength(0);
    state.showing = true;
    type();
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.nextEdits()).toHaveLength(0);
    state.showing = false;
    state.active = false;
    type();
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.nextEdits()).toHaveLength(0);
    state.active = true;
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(client.nextEdits()).toHaveLength(1);
  });

  it('shows the proposal as an inline diff with a hint at the first edit, and sets the context key', async () => {
    const { client, state, type } = setup();
    client.answer = async () => rename(7);
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(state.visible).toEqual([true]);
    const { editor, plan } = state.shown.at(-1)!;
    expect(editor).toBe(state.editor);
    expect(plan!.kind).toBe('accept');
    expect(plan!.edits.map((e) => [e.range.start.line, e.range.start.character, e.range.end.character, e.newText])).toEqual([
      [4, 4, 5, 'count'],
      [5, 10, 11, 'count'],
      [7, 8, 9, 'count'],
    ]);
    expect(plan!.hint).toEqual({ line: 4, text: 'rename n to count: 3 more uses — Tab to accept · Esc to dismiss' });
  });

  it('Tab applies every edit as ONE WorkspaceEdit, then runs the proposal’s command on the server', async () => {
    const { client, controller, state, type } = setup();
    client.answer = async (s) => (s.method === 'parley/nextEdit' ? rename(7) : null);
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(await controller.acceptOrJump()).toBe('accepted');
    expect(state.applied).toHaveLength(1);
    expect(editsOf(state.applied[0])).toEqual([`${SCALE}:4:4-5=count`, `${SCALE}:5:10-11=count`, `${SCALE}:7:8-9=count`]);
    // The server's command, forwarded as workspace/executeCommand.
    expect(client.requests.at(-1)).toEqual({
      method: 'workspace/executeCommand',
      params: { command: 'parley.nextEdit.accepted', arguments: [{ id: 'e1' }] },
      token: undefined,
    });
    expect(controller.current()).toBeUndefined();
    expect(state.visible).toEqual([true, false]);
    expect(state.shown.at(-1)).toEqual({ editor: undefined, plan: undefined });
    // The applied edit is not the user's: no new request for it.
    await vi.advanceTimersByTimeAsync(2000);
    expect(client.nextEdits()).toHaveLength(1);
  });

  it('never applies a stale proposal: it is dismissed and its command not run', async () => {
    const { client, controller, state, type, scale } = setup();
    client.answer = async () => rename(7);
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(controller.current()).toBeDefined();
    // The document moved on without a change event reaching us yet (an
    // extension's edit in flight, say).
    scale.version = 8;
    expect(await controller.acceptOrJump()).toBe('stale');
    expect(state.applied).toHaveLength(0);
    expect(client.requests.filter((r) => r.method === 'workspace/executeCommand')).toHaveLength(0);
    expect(controller.current()).toBeUndefined();
    expect(state.visible.at(-1)).toBe(false);
    expect(state.logs.at(-1)).toMatch(/not applied: scale\.go changed since it was proposed/);
  });

  it('the version check: open documents at the named version; files not open (null) unless opened and changed since', () => {
    const p = planless(rename(7));
    const at7 = doc(SCALE, 7);
    expect(staleEdit(p, [at7])).toBeUndefined();
    expect(staleEdit(p, [doc(SCALE, 8)])?.key).toBe(SCALE);
    expect(staleEdit(p, [])?.key).toBe(SCALE); // closed since
    const closed = planless(rename(null, PRICE));
    expect(staleEdit(closed, [at7])).toBeUndefined();
    expect(staleEdit(closed, [{ uri: vscode.Uri.parse(PRICE), version: 1, isDirty: false }])).toBeUndefined();
    expect(staleEdit(closed, [{ uri: vscode.Uri.parse(PRICE), version: 3, isDirty: true }])?.key).toBe(PRICE);
  });

  it('an edit the editor refuses is reported and its command not run', async () => {
    const { client, controller, state, type } = setup();
    client.answer = async () => rename(7);
    type();
    await vi.advanceTimersByTimeAsync(400);
    state.applyResult = false;
    expect(await controller.acceptOrJump()).toBe('failed');
    expect(client.requests.filter((r) => r.method === 'workspace/executeCommand')).toHaveLength(0);
    expect(state.logs.at(-1)).toMatch(/was not applied/);
  });

  it('is dismissed by Esc, a further edit, the cursor moving far away, another editor, or switching off', async () => {
    const { client, controller, state, type, scale } = setup();
    client.answer = async () => rename(scale.version);
    const propose = async () => {
      type();
      await vi.advanceTimersByTimeAsync(400);
      expect(controller.current()).toBeDefined();
      expect(state.visible.at(-1)).toBe(true);
    };
    const dismissed = () => {
      expect(controller.current()).toBeUndefined();
      expect(state.visible.at(-1)).toBe(false);
      expect(state.shown.at(-1)).toEqual({ editor: undefined, plan: undefined });
    };

    await propose();
    expect(controller.dismiss()).toBe(true);
    dismissed();
    expect(controller.dismiss()).toBe(false);

    await propose();
    type();
    dismissed();
    await vi.advanceTimersByTimeAsync(400);
    expect(controller.current()).toBeDefined();

    // Moving within the proposal's lines keeps it; far below dismisses it.
    state.editor!.selection.active = new vscode.Position(12, 0);
    controller.selectionChanged(state.editor!);
    expect(controller.current()).toBeDefined();
    state.editor!.selection.active = new vscode.Position(40, 0);
    controller.selectionChanged(state.editor!);
    dismissed();

    await propose();
    state.editor = editorOf(doc('file:///home/dev/shop/other/other.go'));
    controller.activeEditorChanged();
    dismissed();

    state.editor = editorOf(scale);
    await propose();
    state.active = false;
    controller.refresh();
    dismissed();
    // Tab with nothing shown falls through to the usual Tab.
    expect(await controller.acceptOrJump()).toBe('none');
  });

  it('edits in another file: Tab jumps there first, where Tab then accepts', async () => {
    const { client, controller, state, type, scale } = setup();
    client.answer = async (s) => (s.method === 'parley/nextEdit' ? rename(null, PRICE) : null);
    type();
    await vi.advanceTimersByTimeAsync(400);
    const { plan } = state.shown.at(-1)!;
    expect(plan).toEqual({
      kind: 'jump',
      edits: [],
      hint: { line: 3, text: 'rename n to count: 3 more uses — Tab to jump to price.go · Esc to dismiss' },
      why: 'rename n to count: 3 more uses',
    });
    expect(state.visible).toEqual([true]);
    expect(await controller.acceptOrJump()).toBe('jumped');
    expect(state.opened).toEqual([{ uri: PRICE, at: new vscode.Position(4, 4) }]);
    expect(state.shown.at(-1)!.editor!.document.uri.toString()).toBe(PRICE);
    expect(state.shown.at(-1)!.plan!.kind).toBe('accept');
    expect(state.applied).toHaveLength(0);
    expect(await controller.acceptOrJump()).toBe('accepted');
    expect(editsOf(state.applied[0])).toHaveLength(3);
    expect(client.requests.at(-1)!.method).toBe('workspace/executeCommand');
    // The document it was asked in kept its text.
    expect(scale.version).toBe(7);
  });

  it('a proposal over several files is one WorkspaceEdit; the hint counts the other files', async () => {
    const { client, controller, state, type } = setup();
    const r = rename(7);
    r.edits.push({ textDocument: { uri: PRICE, version: null }, range: range(2, 0, 1), newText: 'count' });
    client.answer = async (s) => (s.method === 'parley/nextEdit' ? r : null);
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(state.shown.at(-1)!.plan!.hint.text).toBe('rename n to count: 3 more uses (and 1 in another file) — Tab to accept · Esc to dismiss');
    expect(await controller.acceptOrJump()).toBe('accepted');
    expect(state.applied).toHaveLength(1);
    expect(editsOf(state.applied[0])).toContain(`${PRICE}:2:0-1=count`);
  });

  it('stops asking a server without parley/nextEdit; logs real failures, not cancellations', async () => {
    const { client, state, type } = setup();
    client.answer = async () => {
      throw Object.assign(new Error('cancelled'), { code: -32800 });
    };
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(state.logs).toEqual([]);
    client.answer = async () => {
      throw new Error('boom');
    };
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(state.logs).toEqual(['parley/nextEdit: boom']);
    client.answer = async () => {
      throw Object.assign(new Error('Unhandled method parley/nextEdit'), { code: -32601 });
    };
    type();
    await vi.advanceTimersByTimeAsync(400);
    type();
    await vi.advanceTimersByTimeAsync(400);
    expect(client.nextEdits()).toHaveLength(3);
    expect(state.logs.at(-1)).toMatch(/does not answer parley\/nextEdit/);
  });

  it('only the active editor’s document asks', async () => {
    const { client, controller, state } = setup();
    const other = doc('file:///home/dev/shop/other/other.go', 3);
    state.docs.push(other);
    controller.documentChanged({ document: other, contentChanges: [{}] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.nextEdits()).toHaveLength(0);
  });
});

describe('the inline diff', () => {
  it('new text on one line, shortened', () => {
    expect(shownText('count')).toBe('count');
    expect(shownText('import (\n\t"fmt"\n)')).toBe('import ( ⏎ \t"fmt" ⏎ )');
    expect(shownText('x'.repeat(100))).toHaveLength(80);
  });

  it('planFor draws nothing in a document the proposal does not concern', () => {
    const p: Proposal = { why: 'w', edits: planless(rename(7)), originKey: SCALE, originLine: 3 };
    expect(planFor(p, 'file:///elsewhere.go')).toBeUndefined();
  });
});

describe('inline completion’s ghost text, as next-edit proposals see it', () => {
  const fakeCompletionClient = (): CompletionClient => ({
    sendRequest: async <R>() => ({ items: [{ insertText: 'sum', command: { title: '', command: 'parley.completion.accepted', arguments: [{ id: 'c1' }] } }] }) as R,
    sendNotification: async () => undefined,
    code2ProtocolConverter: {
      asUri: (u) => u.toString(),
      asPosition: (p) => ({ line: p.line, character: p.character }),
      asRange: (r) => ({ start: r.start, end: r.end }),
    },
    protocol2CodeConverter: { asRange: (r) => new vscode.Range(new vscode.Position(r.start.line, r.start.character), new vscode.Position(r.end.line, r.end.character)) },
  });

  it('shows for the version items were returned for, until one of them ends', async () => {
    const provider = new CompletionProvider({ client: fakeCompletionClient, active: () => true, log: () => undefined });
    const d = { uri: vscode.Uri.parse(SCALE), version: 4, languageId: 'go' } as unknown as vscode.TextDocument;
    const ctx = { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined };
    expect(provider.showingIn(SCALE, 4)).toBe(false);
    const list = await provider.provideInlineCompletionItems(d, new vscode.Position(1, 1), ctx, new vscode.CancellationTokenSource().token);
    expect(provider.showingIn(SCALE, 4)).toBe(true);
    expect(provider.showingIn(SCALE, 5)).toBe(false);
    provider.handleEndOfLifetime(list!.items[0], { kind: 2 });
    expect(provider.showingIn(SCALE, 4)).toBe(false);
  });
});

/** A result's edits, converted as the controller does. */
function planless(r: NextEditResult) {
  const c = new FakeClient();
  return r.edits.map((w) => {
    const uri = c.protocol2CodeConverter.asUri(w.textDocument.uri);
    return { uri, key: uri.toString(), version: w.textDocument.version, range: c.protocol2CodeConverter.asRange(w.range), newText: w.newText };
  });
}
