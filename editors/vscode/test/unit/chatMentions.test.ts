import { describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { ChatController, type ChatHost, type EditorContext } from '../../src/chatController';
import type { Mention } from '../../src/protocol';
import type { ToView } from '../../src/webview/messages';

interface Call {
  method: string;
  params: any;
  token?: vscode.CancellationToken;
}

/** A language client whose parley/mentionCandidates answers wait for release(); cancelling one rejects it. */
class FakeClient {
  calls: Call[] = [];
  private waiting: { resolve(v: unknown): void; query: string }[] = [];
  fail = false;

  sendRequest<R>(method: string, params: any, token?: vscode.CancellationToken): Promise<R> {
    this.calls.push({ method, params, token });
    if (method === 'parley/chat') {
      return Promise.resolve({ session: 's1', turn: 1, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, text: 'ok' } as R);
    }
    if (method === 'parley/mentionCandidates') {
      if (this.fail) {
        return Promise.reject(new Error('method not found'));
      }
      return new Promise<R>((resolve, reject) => {
        token?.onCancellationRequested(() => reject(Object.assign(new Error('cancelled'), { code: -32800 })));
        this.waiting.push({ resolve: resolve as (v: unknown) => void, query: params.query });
      });
    }
    return Promise.resolve(undefined as R);
  }

  /** Answers every waiting query with one file item named after it. */
  release(): void {
    for (const w of this.waiting.splice(0)) {
      w.resolve({ items: [{ label: `${w.query}.go`, mention: { kind: 'file', text: `@${w.query}.go`, path: `${w.query}.go` } }], incomplete: false });
    }
  }
}

const ctx: EditorContext = {
  context: { uri: 'file:///w/cart/cart.go', range: { start: { line: 2, character: 0 }, end: { line: 4, character: 1 } } },
  info: { label: 'cart/cart.go:3-5', uri: 'file:///w/cart/cart.go' },
};

function setup() {
  const client = new FakeClient();
  const posted: ToView[] = [];
  const host: ChatHost = {
    client: () => client,
    view: { post: (m) => posted.push(m), visible: true, reveal: vi.fn() },
    editorContext: () => ctx,
    openFile: vi.fn(),
    openLink: vi.fn(),
    confirm: vi.fn(async () => true),
    askModal: vi.fn(async () => undefined),
    restartServer: vi.fn(),
    askCompactFocus: vi.fn(async () => ''),
    log: vi.fn(),
  };
  const chat = new ChatController(host);
  chat.setServerState('running');
  return { client, posted, chat };
}

const answers = (posted: ToView[]) => posted.filter((m): m is Extract<ToView, { type: 'mentionCandidates' }> => m.type === 'mentionCandidates');

describe('@-mention candidates', () => {
  it('asks parley/mentionCandidates with the active file and posts the answer under the page id', async () => {
    const { client, posted, chat } = setup();
    const done = chat.onMessage({ type: 'mentionQuery', id: 7, query: 'cart' });
    client.release();
    await done;
    expect(client.calls[0]).toMatchObject({ method: 'parley/mentionCandidates', params: { query: 'cart', uri: ctx.context.uri, limit: 50 } });
    expect(answers(posted)).toEqual([
      { type: 'mentionCandidates', id: 7, incomplete: false, items: [{ label: 'cart.go', mention: { kind: 'file', text: '@cart.go', path: 'cart.go' } }] },
    ]);
  });

  it('cancels the query a newer one replaces: only the newer answer reaches the page', async () => {
    const { client, posted, chat } = setup();
    const first = chat.onMessage({ type: 'mentionQuery', id: 1, query: 'ca' });
    const second = chat.onMessage({ type: 'mentionQuery', id: 2, query: 'cart' });
    expect(client.calls[0].token?.isCancellationRequested).toBe(true);
    client.release();
    await Promise.all([first, second]);
    expect(answers(posted).map((a) => a.id)).toEqual([2]);
  });

  it('answers no candidates when the server cannot', async () => {
    const { client, posted, chat } = setup();
    client.fail = true;
    await chat.onMessage({ type: 'mentionQuery', id: 3, query: '' });
    expect(answers(posted)).toEqual([{ type: 'mentionCandidates', id: 3, items: [], incomplete: false }]);
  });
});

describe('sending @-mentions', () => {
  const file: Mention = { kind: 'file', text: '@cart/cart.go', path: 'cart/cart.go' };

  it('passes the mentions with parley/chat, and none when there are none', async () => {
    const { client, chat } = setup();
    await chat.onMessage({ type: 'send', text: 'explain @cart/cart.go', includeContext: false, mentions: [file] });
    await chat.onMessage({ type: 'send', text: 'thanks', includeContext: false });
    const chats = client.calls.filter((c) => c.method === 'parley/chat');
    expect(chats[0].params).toEqual({ message: 'explain @cart/cart.go', mentions: [file] });
    expect(chats[1].params).not.toHaveProperty('mentions');
  });

  it('"@selection" sends the editor selection as the context even with the context left out', async () => {
    const { client, chat } = setup();
    await chat.onMessage({ type: 'send', text: 'why @selection', includeContext: false, mentions: [{ kind: 'selection', text: '@selection' }] });
    const params = client.calls.find((c) => c.method === 'parley/chat')!.params;
    expect(params.context).toEqual(ctx.context);
    expect(params.mentions).toEqual([{ kind: 'selection', text: '@selection' }]);
  });
});
