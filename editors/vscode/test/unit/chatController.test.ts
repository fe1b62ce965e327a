import { describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { ChatController, type ChatHost, type EditorContext } from '../../src/chatController';
import type { ChatEvent } from '../../src/protocol';
import type { ToView } from '../../src/webview/messages';
import { reduceAll } from '../../src/webview/state';
import { type CompactFixture, type TurnFixture, compactFixture, sessionsFixture, turnFixture } from '../fixtures';

interface Call {
  method: string;
  params: any;
  token?: vscode.CancellationToken;
}

/**
 * A language client that answers parley/chat by replaying a recorded
 * fixture: its events as parley/event, then its result. With holdAfter,
 * it stops after that many events until the token is cancelled, then
 * plays the rest (as the server does on $/cancelRequest).
 */
class FakeClient {
  calls: Call[] = [];
  onEvent: (e: ChatEvent) => void = () => undefined;
  next: { fixture: TurnFixture; holdAfter?: number }[] = [];
  answers: Record<string, unknown> = {};
  /** parley/compact replays this fixture's events and result, once gate (if any) resolves. */
  compact?: { fixture: CompactFixture; gate?: Promise<void> };

  async sendRequest<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R> {
    this.calls.push({ method, params, token });
    if (method === 'parley/chat' || method === 'workspace/executeCommand') {
      const step = this.next.shift();
      if (!step) {
        throw new Error('no scripted turn');
      }
      const events = step.fixture.events;
      const hold = step.holdAfter ?? events.length;
      for (const e of events.slice(0, hold)) {
        await Promise.resolve();
        this.onEvent(e);
      }
      if (hold < events.length) {
        await new Promise<void>((resolve) => token!.onCancellationRequested(() => resolve()));
        for (const e of events.slice(hold)) {
          this.onEvent(e);
        }
      }
      if (step.fixture.error) {
        throw Object.assign(new Error(step.fixture.error.message), { code: step.fixture.error.code });
      }
      return step.fixture.result as R;
    }
    if (method === 'parley/compact' && this.compact) {
      const { fixture, gate } = this.compact;
      await gate;
      for (const e of fixture.events) {
        this.onEvent(e);
      }
      return fixture.result as R;
    }
    if (method in this.answers) {
      const a = this.answers[method];
      if (a instanceof Error) {
        throw a;
      }
      return a as R;
    }
    throw new Error(`unexpected ${method}`);
  }
}

const ctx: EditorContext = {
  context: { uri: 'file:///home/dev/shop/cart/cart.go', range: { start: { line: 9, character: 0 }, end: { line: 16, character: 1 } }, diagnostics: [] },
  info: { label: 'cart/cart.go:10-17', uri: 'file:///home/dev/shop/cart/cart.go' },
};

function setup(over: Partial<ChatHost> = {}) {
  const client = new FakeClient();
  const posted: ToView[] = [];
  let visible = true;
  const running: number[] = [];
  const host: ChatHost = {
    client: () => client,
    view: {
      post: (m) => posted.push(m),
      get visible() {
        return visible;
      },
      reveal: vi.fn(),
    },
    editorContext: () => ctx,
    openFile: vi.fn(),
    openLink: vi.fn(),
    confirm: vi.fn(async () => true),
    askModal: vi.fn(async () => 'Deny'),
    restartServer: vi.fn(),
    askCompactFocus: vi.fn(async () => 'the Qty fix'),
    onRunning: (n) => running.push(n),
    ...over,
  };
  const chat = new ChatController(host);
  chat.setServerState('running');
  client.onEvent = (e) => chat.onEvent(e);
  client.answers['parley/sessions'] = sessionsFixture().sessions;
  return { client, posted, chat, host, running, setVisible: (v: boolean) => (visible = v) };
}

const ofType = <T extends ToView['type']>(posted: ToView[], type: T) => posted.filter((m): m is Extract<ToView, { type: T }> => m.type === type);

describe('ChatController', () => {
  it('sends parley/chat with the editor context, streams the events and ends the turn', async () => {
    const { client, posted, chat, running } = setup();
    const f = turnFixture('text-answer');
    client.next.push({ fixture: f });
    const result = await chat.send('Why does Total add the fee?', true);
    expect(result).toEqual(f.result);
    expect(client.calls[0]).toMatchObject({ method: 'parley/chat', params: { message: 'Why does Total add the fee?', context: ctx.context } });
    expect(client.calls[0].params.session).toBeUndefined();
    expect(chat.session).toBe(f.result!.session);
    const kinds = posted.filter((m) => ['userMessage', 'turnStart', 'event', 'turnEnd'].includes(m.type)).map((m) => m.type);
    expect(kinds).toEqual(['userMessage', 'turnStart', ...f.events.map(() => 'event'), 'turnEnd']);
    expect(running).toEqual([0, 1, 0].slice(-running.length));
    expect(chat.running).toBe(false);
    // The page's reducer turns exactly these messages into the answer.
    const s = reduceAll(posted);
    expect(s.turns[0].items.map((i) => i.kind)).toEqual(['thinking', 'text']);
  });

  it('continues the session and leaves the context out when asked to', async () => {
    const { client, chat } = setup();
    client.next.push({ fixture: turnFixture('text-answer') }, { fixture: turnFixture('tool-edit') });
    await chat.send('first');
    await chat.send('Fix it so Qty counts.', false);
    const chats = client.calls.filter((c) => c.method === 'parley/chat');
    expect(chats[1].params).toEqual({ message: 'Fix it so Qty counts.', session: turnFixture('text-answer').result!.session });
  });

  it('Stop cancels the request through its token; the cancelled result ends the turn', async () => {
    const { client, posted, chat } = setup();
    const f = turnFixture('cancelled');
    client.next.push({ fixture: f, holdAfter: 5 }); // held while the shell command "runs"
    const pending = chat.send('Run the tests');
    await vi.waitFor(() => expect(ofType(posted, 'event')).toHaveLength(5));
    expect(chat.running).toBe(true);
    expect(client.calls[0].token!.isCancellationRequested).toBe(false);
    await chat.onMessage({ type: 'stop' });
    expect(client.calls[0].token!.isCancellationRequested).toBe(true);
    await pending;
    const end = ofType(posted, 'turnEnd').at(-1)!;
    expect(end.result?.stopReason).toBe('cancelled');
    expect(end.cancelled).toBe(true);
    const s = reduceAll(posted);
    expect(s.turns[0].stopReason).toBe('cancelled');
    expect(s.running).toBe(false);
  });

  it('a request that fails outright shows the error', async () => {
    const { client, posted, chat } = setup();
    client.next.push({ fixture: { ...turnFixture('error'), events: [], result: null, error: { code: -32803, message: 'the agent is not configured: no API key' } } });
    await chat.send('hi');
    expect(ofType(posted, 'requestError').at(-1)?.message).toBe('the agent is not configured: no API key');
    expect(reduceAll(posted).turns[0]).toMatchObject({ stopReason: 'error', error: 'the agent is not configured: no API key' });
  });

  it('ignores events of sessions it does not show', async () => {
    const { client, posted, chat } = setup();
    client.next.push({ fixture: turnFixture('text-answer') });
    await chat.send('x');
    const before = posted.length;
    chat.onEvent({ ...turnFixture('error').events[0] });
    expect(posted.length).toBe(before);
  });

  it('shows an MCP server event (no session) whatever session it shows', async () => {
    const { client, posted, chat } = setup();
    const mcp: ChatEvent = { session: '', turn: 0, kind: 'mcp', text: 'MCP server gh failed to start', mcp: { server: 'gh', state: 'failed', error: 'boom' } };
    chat.onEvent(mcp); // before any session
    client.next.push({ fixture: turnFixture('text-answer') });
    await chat.send('x');
    chat.onEvent(mcp); // while another session is shown
    expect(ofType(posted, 'event').filter((m) => m.event.kind === 'mcp')).toHaveLength(2);
    expect(chat.session).toBe(turnFixture('text-answer').result!.session);
  });

  it('runs code action commands in the view, cancellable, in a new session', async () => {
    const { client, posted, chat, host } = setup();
    client.next.push({ fixture: turnFixture('tool-edit') });
    const arg = { uri: 'file:///home/dev/shop/cart/cart.go', range: { start: { line: 9, character: 0 }, end: { line: 16, character: 1 } }, diagnostics: [{}, {}] };
    const r = await chat.runServerCommand('parley.fix', [arg]);
    expect(r?.stopReason).toBe('end_turn');
    expect(host.view.reveal).toHaveBeenCalledWith(true);
    expect(client.calls[0]).toMatchObject({ method: 'workspace/executeCommand', params: { command: 'parley.fix', arguments: [arg] } });
    expect(client.calls[0].token).toBeDefined();
    const user = ofType(posted, 'userMessage')[0];
    expect(user).toEqual({ type: 'userMessage', text: 'Fix', context: { label: 'cart/cart.go:10-17', uri: arg.uri, diagnostics: 2 } });
    expect(ofType(posted, 'event')).toHaveLength(turnFixture('tool-edit').events.length);
  });

  it('replays the transcript to a new page', async () => {
    const { client, posted, chat } = setup();
    client.next.push({ fixture: turnFixture('text-answer') });
    await chat.send('Why does Total add the fee?');
    posted.length = 0;
    await chat.onMessage({ type: 'ready' });
    expect(posted[0]).toEqual({ type: 'reset' });
    const s = reduceAll(posted);
    expect(s.turns).toHaveLength(1);
    expect(s.session).toBe(turnFixture('text-answer').result!.session);
    expect(ofType(posted, 'context')[0]).toMatchObject({ include: true, context: { label: 'cart/cart.go:10-17' } });
  });

  it('opens, lists and deletes sessions', async () => {
    const { client, posted, chat, host } = setup();
    const f = sessionsFixture();
    client.answers['parley/session'] = f.history;
    client.answers['parley/deleteSession'] = { deleted: true };
    await chat.onMessage({ type: 'listSessions' });
    expect(ofType(posted, 'sessions').at(-1)?.sessions).toHaveLength(3);
    await chat.onMessage({ type: 'openSession', id: f.history.id });
    expect(client.calls.find((c) => c.method === 'parley/session')?.params).toEqual({ session: f.history.id });
    expect(chat.session).toBe(f.history.id);
    expect(reduceAll(posted).turns).toHaveLength(2);
    await chat.onMessage({ type: 'deleteSession', id: f.history.id });
    expect(host.confirm).toHaveBeenCalledWith('Delete the chat session "Why does Total add the fee?"?', 'Delete');
    expect(client.calls.find((c) => c.method === 'parley/deleteSession')?.params).toEqual({ session: f.history.id });
    expect(chat.session).toBeUndefined();
  });

  it('does not delete without confirmation', async () => {
    const { client, chat } = setup({ confirm: vi.fn(async () => false) });
    await chat.onMessage({ type: 'deleteSession', id: 'x' });
    expect(client.calls.some((c) => c.method === 'parley/deleteSession')).toBe(false);
  });

  it('a session that cannot be opened becomes a notice', async () => {
    const { client, posted, chat } = setup();
    client.answers['parley/session'] = new Error('session x is running a turn; ask again when it ends');
    await chat.onMessage({ type: 'openSession', id: 'x' });
    expect(reduceAll(posted).notice).toMatch(/running a turn/);
  });

  it('asks approvals in the view and resolves with the clicked answer', async () => {
    const { posted, chat } = setup();
    const cts = new (await import('vscode')).CancellationTokenSource();
    const answer = chat.askInChat('parley wants to run: go test ./...', ['Allow once', 'Allow for this session', 'Deny'], cts.token)!;
    const q = ofType(posted, 'approval')[0];
    expect(q).toMatchObject({ message: 'parley wants to run: go test ./...' });
    await chat.onMessage({ type: 'approve', id: q.id, answer: 'Allow for this session' });
    await expect(answer).resolves.toBe('Allow for this session');
  });

  it('withdraws a question when the request is cancelled, and uses a modal when the view is hidden', async () => {
    const { posted, chat, host, setVisible } = setup();
    const { CancellationTokenSource } = await import('vscode');
    const cts = new CancellationTokenSource();
    const a = chat.askInChat('q', ['Allow once', 'Deny'], cts.token)!;
    cts.cancel();
    await expect(a).resolves.toBeNull();
    expect(ofType(posted, 'approvalDone')).toHaveLength(1);

    const b = chat.askInChat('q2', ['Allow once', 'Deny'], new CancellationTokenSource().token)!;
    chat.viewHidden();
    await expect(b).resolves.toBe('Deny');
    expect(host.askModal).toHaveBeenCalledWith('q2', ['Allow once', 'Deny']);

    setVisible(false);
    expect(chat.askInChat('q3', [], new CancellationTokenSource().token)).toBeUndefined();
  });

  it('"Ask about selection" pins the selection for the next message only', async () => {
    const { client, posted, chat, host } = setup({ editorContext: () => undefined });
    await chat.askAboutSelection(ctx);
    expect(host.view.reveal).toHaveBeenCalledWith(false);
    expect(ofType(posted, 'context').at(-1)).toMatchObject({ context: { label: 'cart/cart.go:10-17', pinned: true } });
    expect(ofType(posted, 'focusInput')).toHaveLength(1);
    client.next.push({ fixture: turnFixture('text-answer') }, { fixture: turnFixture('tool-edit') });
    await chat.send('what is this?', false);
    expect(client.calls[0].params.context).toEqual(ctx.context);
    await chat.send('and now?', true);
    expect(client.calls.filter((c) => c.method === 'parley/chat')[1].params.context).toBeUndefined();
  });

  it('a stopped server ends the shown turn and refuses new ones', async () => {
    const { client, posted, chat } = setup();
    client.next.push({ fixture: turnFixture('cancelled'), holdAfter: 2 });
    void chat.send('x');
    await vi.waitFor(() => expect(ofType(posted, 'event')).toHaveLength(2));
    chat.setServerState('stopped', 'the server exited');
    expect(ofType(posted, 'requestError').at(-1)?.message).toBe('the server exited');
    expect(chat.running).toBe(false);
    const none = setup({ client: () => undefined });
    await none.chat.send('y');
    expect(ofType(none.posted, 'requestError').at(-1)?.message).toMatch(/not running/);
  });

  it('new session keeps the running turn going in the background', async () => {
    const { client, posted, chat } = setup();
    client.next.push({ fixture: turnFixture('cancelled'), holdAfter: 3 });
    const p = chat.send('long');
    await vi.waitFor(() => expect(ofType(posted, 'event')).toHaveLength(3));
    await chat.onMessage({ type: 'newSession' });
    expect(chat.session).toBeUndefined();
    expect(chat.running).toBe(false);
    expect(chat.runningCount).toBe(1);
    const n = posted.length;
    expect(client.calls[0].token!.isCancellationRequested).toBe(false);
    chat.dispose(); // disposing cancels it
    await p;
    expect(posted.slice(n).some((m) => m.type === 'event')).toBe(false);
  });

  /** The recorded two-turn session the compact fixture compacts. */
  async function twoTurns(client: FakeClient, chat: ChatController) {
    client.next.push({ fixture: turnFixture('text-answer') }, { fixture: turnFixture('tool-edit') });
    await chat.send('Why does Total add the fee?');
    await chat.send('Fix it so Qty counts.');
  }

  it('compacts the shown session with the focus asked for; the compaction event shows as an entry', async () => {
    const { client, posted, chat, host } = setup();
    const f = compactFixture();
    client.compact = { fixture: f };
    await twoTurns(client, chat);
    expect(chat.session).toBe(f.request.params.session);
    await chat.onMessage({ type: 'compact' });
    expect(host.askCompactFocus).toHaveBeenCalledOnce();
    expect(client.calls.at(-1)).toMatchObject({ method: 'parley/compact', params: { session: f.request.params.session, focus: 'the Qty fix' } });
    const tail = posted.filter((m) => ['compactStart', 'event', 'compactEnd'].includes(m.type)).slice(-3);
    expect(tail).toEqual([{ type: 'compactStart' }, { type: 'event', event: f.events[0] }, { type: 'compactEnd', notice: undefined }]);
    const s = reduceAll(posted);
    expect(s.compacting).toBe(false);
    expect(s.notice).toBeUndefined();
    expect(s.turns.map((t) => !!t.between)).toEqual([false, false, true]);
    // A new page gets the entry too.
    posted.length = 0;
    await chat.onMessage({ type: 'ready' });
    expect(reduceAll(posted).turns).toHaveLength(3);
  });

  it('sends no focus when the input is left empty, and nothing when it is cancelled', async () => {
    const focus = vi.fn<() => Promise<string | undefined>>(async () => '  ');
    const { client, chat } = setup({ askCompactFocus: focus });
    client.compact = { fixture: compactFixture() };
    await twoTurns(client, chat);
    await chat.compactAsking();
    expect(client.calls.at(-1)).toMatchObject({ method: 'parley/compact', params: { session: chat.session } });
    expect(client.calls.at(-1)!.params.focus).toBeUndefined();
    focus.mockResolvedValueOnce(undefined);
    const n = client.calls.length;
    await chat.compactAsking();
    expect(client.calls.length).toBe(n);
  });

  it('says why it cannot compact: no session, a running turn, no server', async () => {
    const { client, posted, chat, host } = setup();
    await chat.onMessage({ type: 'compact' });
    expect(ofType(posted, 'notice').at(-1)?.message).toMatch(/no conversation yet/);
    expect(host.askCompactFocus).not.toHaveBeenCalled();

    client.next.push({ fixture: turnFixture('cancelled'), holdAfter: 2 });
    const p = chat.send('x');
    await vi.waitFor(() => expect(ofType(posted, 'event')).toHaveLength(2));
    await chat.compact();
    expect(ofType(posted, 'notice').at(-1)?.message).toMatch(/turn is running/);
    // The notice does not end the running turn in the view.
    expect(reduceAll(posted).turns.at(-1)?.done).toBe(false);
    chat.stop();
    await p;
    expect(client.calls.some((c) => c.method === 'parley/compact')).toBe(false);

    const none = setup({ client: () => undefined });
    await none.chat.compact();
    expect(ofType(none.posted, 'notice').at(-1)?.message).toMatch(/not running/);
  });

  it('nothing to compact, or a failed request, ends with a notice', async () => {
    const { client, posted, chat } = setup();
    await twoTurns(client, chat);
    client.answers['parley/compact'] = { session: chat.session };
    await chat.compact();
    expect(ofType(posted, 'compactEnd').at(-1)?.notice).toMatch(/Nothing to compact yet/);
    client.answers['parley/compact'] = new Error('compact session x: the model returned an empty summary');
    await chat.compact();
    const s = reduceAll(posted);
    expect(s.notice).toBe('Could not compact the conversation: compact session x: the model returned an empty summary');
    expect(s.compacting).toBe(false);
  });

  it('refuses a message while compacting', async () => {
    const { client, posted, chat } = setup();
    let open!: () => void;
    client.compact = { fixture: compactFixture(), gate: new Promise<void>((r) => (open = r)) };
    await twoTurns(client, chat);
    const p = chat.compact();
    await chat.send('more');
    expect(ofType(posted, 'requestError').at(-1)?.message).toMatch(/being compacted/);
    expect(client.calls.filter((c) => c.method === 'parley/chat')).toHaveLength(2);
    open();
    await p;
    await chat.compact(); // no longer compacting: the second request goes out
    expect(client.calls.filter((c) => c.method === 'parley/compact')).toHaveLength(2);
  });

  it('forwards file and link clicks', async () => {
    const { chat, host } = setup();
    await chat.onMessage({ type: 'openFile', uri: 'file:///a.go' });
    await chat.onMessage({ type: 'openLink', href: 'https://go.dev' });
    expect(host.openFile).toHaveBeenCalledWith('file:///a.go');
    expect(host.openLink).toHaveBeenCalledWith('https://go.dev');
  });
});

describe('prompt commands', () => {
  it('lists parley/promptCommands for the page, and none when the server cannot', async () => {
    const { client, posted, chat } = setup();
    const commands = [{ name: 'review', description: 'Review a change', argumentHint: '[focus]', source: 'workspace' }];
    client.answers['parley/promptCommands'] = commands;
    await chat.onMessage({ type: 'listPromptCommands' });
    expect(ofType(posted, 'promptCommands')).toEqual([{ type: 'promptCommands', commands }]);
    expect(client.calls.map((c) => c.method)).toContain('parley/promptCommands');
    client.answers['parley/promptCommands'] = new Error('method not found');
    await chat.onMessage({ type: 'listPromptCommands' });
    expect(ofType(posted, 'promptCommands')[1]).toEqual({ type: 'promptCommands', commands: [] });
  });

  it('sends "/NAME args" to the server as the message', async () => {
    const { client, chat } = setup();
    client.next.push({ fixture: turnFixture('text-answer') });
    await chat.send('/review error handling', false);
    expect(client.calls.find((c) => c.method === 'parley/chat')?.params.message).toBe('/review error handling');
  });
});
