import { describe, expect, it } from 'vitest';
import type { ToView } from '../../src/webview/messages';
import type { ChatEvent, Compaction } from '../../src/protocol';
import {
  type CompactionItem,
  type ToolItem,
  historyTurns,
  initialState,
  reduce,
  reduceAll,
  splitUserText,
  titleOf,
} from '../../src/webview/state';
import { fileLabel, stopReasonText, toolSummary, usageText } from '../../src/webview/present';
import { compactionDetail, compactionReason, compactionTitle } from '../../src/webview/compactionText';
import { compactFixture, sessionsFixture, turnFixture } from '../fixtures';

/** What the controller posts for a turn the user typed. */
function typedTurn(name: Parameters<typeof turnFixture>[0]): ToView[] {
  const f = turnFixture(name);
  return [
    { type: 'userMessage', text: f.request.params.message },
    { type: 'turnStart' },
    ...f.events.map((event): ToView => ({ type: 'event', event })),
    { type: 'turnEnd', result: f.result ?? undefined },
  ];
}

describe('reducer: recorded event streams → view state', () => {
  it('text answer: thinking and streamed markdown merge into one item each', () => {
    const f = turnFixture('text-answer');
    const s = reduceAll(typedTurn('text-answer'));
    expect(s.session).toBe(f.events[0].session);
    expect(s.running).toBe(false);
    expect(s.turns).toHaveLength(1);
    const t = s.turns[0];
    expect(t.user?.text).toBe('Why does Total add the fee?');
    expect(t.items.map((i) => i.kind)).toEqual(['thinking', 'text']);
    const full = f.events.filter((e) => e.kind === 'text').map((e) => e.text).join('');
    expect(t.items[1]).toEqual({ kind: 'text', text: full });
    expect(full).toContain('```go');
    expect(t.done).toBe(true);
    expect(t.stopReason).toBe('end_turn');
    expect(t.usage).toEqual(f.result!.usage);
    expect(t.number).toBe(1);
  });

  it('streams: partial text while running, usage summed per model call until done', () => {
    const f = turnFixture('tool-edit');
    const msgs = typedTurn('tool-edit');
    // Up to and including the first usage event.
    const firstUsage = msgs.findIndex((m) => m.type === 'event' && m.event.kind === 'usage');
    let s = reduceAll(msgs.slice(0, firstUsage + 1));
    expect(s.running).toBe(true);
    expect(s.turns[0].done).toBe(false);
    expect(s.turns[0].items).toEqual([{ kind: 'text', text: "I'll read the file first." }]);
    expect(s.turns[0].usage?.inputTokens).toBe(2100);
    const secondUsage = msgs.findIndex((m, i) => i > firstUsage && m.type === 'event' && m.event.kind === 'usage');
    s = reduceAll(msgs.slice(firstUsage + 1, secondUsage + 1), s);
    expect(s.turns[0].usage).toMatchObject({ inputTokens: 2100 + 2600, outputTokens: 60 + 120, cacheReadTokens: 1800 });
    s = reduceAll(msgs.slice(secondUsage + 1), s);
    expect(s.turns[0].usage).toEqual(f.result!.usage);
  });

  it('tool call, result and edit: compact items in order, results matched by id', () => {
    const s = reduceAll(typedTurn('tool-edit'));
    const t = s.turns[0];
    expect(t.items.map((i) => (i.kind === 'tool' ? `tool:${i.name}` : i.kind))).toEqual([
      'text',
      'tool:read_file',
      'text',
      'tool:edit_file',
      'edit',
      'text',
    ]);
    const read = t.items[1] as ToolItem;
    expect(read.input).toEqual({ path: 'cart/cart.go' });
    expect(read.result?.content).toContain('func Total');
    expect(read.result?.isError).toBeFalsy();
    const edit = t.items[4];
    expect(edit).toMatchObject({ kind: 'edit', toolName: 'edit_file', changes: [{ op: 'modify', uri: 'file:///home/dev/shop/cart/cart.go' }] });
    expect(t.stopReason).toBe('end_turn');
  });

  it('cancelled turn: the killed command is an error result and the turn says Stopped', () => {
    const s = reduceAll([...typedTurn('cancelled').slice(0, -1), { type: 'turnEnd', cancelled: true, result: turnFixture('cancelled').result! }]);
    const t = s.turns[0];
    const shell = t.items.find((i) => i.kind === 'tool') as ToolItem;
    expect(shell.name).toBe('shell');
    expect(shell.result?.isError).toBe(true);
    expect(t.stopReason).toBe('cancelled');
    expect(stopReasonText(t.stopReason)).toBe('Stopped');
    expect(s.running).toBe(false);
  });

  it('cancelled before any event: turnEnd{cancelled} closes the turn', () => {
    const s = reduceAll([{ type: 'userMessage', text: 'hi' }, { type: 'turnStart' }, { type: 'turnEnd', cancelled: true }]);
    expect(s.turns[0]).toMatchObject({ done: true, stopReason: 'cancelled' });
  });

  it('error: the error event is shown and the turn ends with stopReason error', () => {
    const s = reduceAll(typedTurn('error'));
    const t = s.turns[0];
    expect(t.error).toMatch(/HTTP 400/);
    expect(t.stopReason).toBe('error');
    expect(t.items).toEqual([]);
  });

  it('a failed request (no events) closes the open turn with the message', () => {
    const s = reduceAll([
      { type: 'userMessage', text: 'hi' },
      { type: 'turnStart' },
      { type: 'requestError', message: 'the agent is not configured: no API key' },
    ]);
    expect(s.turns[0]).toMatchObject({ done: true, stopReason: 'error', error: 'the agent is not configured: no API key' });
    expect(s.running).toBe(false);
    // Outside a turn it becomes a notice.
    const n = reduce(s, { type: 'requestError', message: 'Could not list sessions' });
    expect(n.notice).toBe('Could not list sessions');
  });

  it('a code action turn (events without a user message) gets its own turn', () => {
    const first = reduceAll(typedTurn('text-answer'));
    const events = turnFixture('tool-edit').events;
    const s = reduceAll(
      events.map((event): ToView => ({ type: 'event', event })),
      first,
    );
    expect(s.turns).toHaveLength(2);
    expect(s.turns[1].user).toBeUndefined();
    expect(s.turns[1].number).toBe(2);
    expect(s.turns[1].done).toBe(true);
  });

  it('ignores event kinds it does not know', () => {
    const s0 = reduceAll(typedTurn('text-answer'));
    const s1 = reduce(s0, { type: 'event', event: { session: s0.session!, turn: 1, kind: 'somethingNew' } });
    expect(s1).toBe(s0);
  });

  it('reset starts a new session but keeps the session list and context', () => {
    let s = reduceAll(typedTurn('text-answer'));
    s = reduce(s, { type: 'sessions', sessions: sessionsFixture().sessions.sessions, current: s.session });
    s = reduce(s, { type: 'context', context: { label: 'cart/cart.go:10-17', uri: 'file:///x' }, include: false });
    const r = reduce(s, { type: 'reset' });
    expect(r.turns).toEqual([]);
    expect(r.session).toBeUndefined();
    expect(r.sessions).toHaveLength(3);
    expect(r.context?.label).toBe('cart/cart.go:10-17');
    expect(r.includeContext).toBe(false);
    expect(r.nextKey).toBe(s.nextKey);
  });

  it('a new session is titled by its first message', () => {
    const s = reduceAll(typedTurn('cancelled'));
    expect(s.title).toBe('Run the tests');
    expect(titleOf('\n  ' + 'x'.repeat(100))).toHaveLength(60);
    expect(titleOf('  \n ')).toBeUndefined();
  });

  it('session title comes from the list', () => {
    const f = sessionsFixture();
    const s = reduce({ ...initialState(), session: f.history.id }, { type: 'sessions', sessions: f.sessions.sessions });
    expect(s.title).toBe('Why does Total add the fee?');
  });

  it('approvals are added and removed by id', () => {
    let s = reduce(initialState(), { type: 'approval', id: 1, message: 'parley wants to run: make', actions: ['Allow once', 'Deny'] });
    s = reduce(s, { type: 'approval', id: 2, message: 'parley wants to fetch https://x', actions: ['Deny'] });
    expect(s.approvals.map((a) => a.id)).toEqual([1, 2]);
    s = reduce(s, { type: 'approvalDone', id: 1 });
    expect(s.approvals.map((a) => a.id)).toEqual([2]);
  });

  it('server state: a stopped server ends running', () => {
    const s = reduce({ ...initialState(), running: true }, { type: 'server', state: 'stopped', message: 'exit 1' });
    expect(s).toMatchObject({ running: false, server: 'stopped', serverMessage: 'exit 1' });
  });
});

describe('history (parley/session) → turns', () => {
  it('rebuilds turns with the typed text, the context label and tool results', () => {
    const h = sessionsFixture().history;
    const turns = historyTurns(h, 1);
    expect(turns).toHaveLength(2);
    expect(turns[0].user).toEqual({ text: 'Why does Total add the fee?', context: { label: 'shop/cart/cart.go:10-17', uri: '' } });
    expect(turns[0].items.map((i) => i.kind)).toEqual(['thinking', 'text']);
    expect(turns[1].user?.text).toBe('Fix it so Qty counts.');
    expect(turns[1].user?.context?.label).toBe('shop/cart/cart.go');
    const tools = turns[1].items.filter((i): i is ToolItem => i.kind === 'tool');
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'edit_file']);
    expect(tools.every((t) => t.result !== undefined)).toBe(true);
    expect(turns.every((t) => t.done)).toBe(true);
  });

  it('the history action replaces the transcript', () => {
    const h = sessionsFixture().history;
    const s = reduce(reduceAll(typedTurn('error')), { type: 'history', session: h });
    expect(s.session).toBe(h.id);
    expect(s.title).toBe(h.title);
    expect(s.turns).toHaveLength(2);
    expect(new Set(s.turns.map((t) => t.key)).size).toBe(2);
  });
});

describe('compaction', () => {
  const auto: Compaction = { time: '2026-11-22T10:15:04Z', reason: 'auto', tokensBefore: 172000, tokensAfter: 41000, masked: 12, summarised: 40 };
  const ev = (over: Partial<ChatEvent>): ToView => ({ type: 'event', event: { session: 's', turn: 3, kind: 'text', ...over } });

  it('parley/compact outside a turn: the recorded event is an entry of its own after the turns', () => {
    const f = compactFixture();
    const before = reduceAll([...typedTurn('text-answer'), ...typedTurn('tool-edit')]);
    let s = reduce(before, { type: 'compactStart' });
    expect(s.compacting).toBe(true);
    s = reduceAll(
      f.events.map((event): ToView => ({ type: 'event', event })),
      s,
    );
    s = reduce(s, { type: 'compactEnd' });
    expect(s.compacting).toBe(false);
    expect(s.turns).toHaveLength(3);
    // The finished turns are untouched: the event's turn number is the last turn's.
    expect(s.turns.slice(0, 2)).toEqual(before.turns);
    const entry = s.turns[2];
    expect(entry).toMatchObject({ between: true, done: true });
    expect(entry.user).toBeUndefined();
    expect(entry.items).toEqual([{ kind: 'compaction', compaction: f.result.compaction, text: f.events[0].text }]);
    // The next turn is a turn of its own again.
    s = reduceAll([{ type: 'userMessage', text: 'next' }, ev({ turn: 3, text: 'ok' })], s);
    expect(s.turns).toHaveLength(4);
    expect(s.turns[3].items).toEqual([{ kind: 'text', text: 'ok' }]);
  });

  it('an automatic compaction inside a turn is one of its items, in order', () => {
    const s = reduceAll([
      { type: 'userMessage', text: 'go on' },
      { type: 'turnStart' },
      ev({ kind: 'compaction', compaction: auto, text: 'compacted' }),
      ev({ kind: 'text', text: 'Continuing.' }),
    ]);
    expect(s.turns).toHaveLength(1);
    expect(s.turns[0].items.map((i) => i.kind)).toEqual(['compaction', 'text']);
    expect(s.turns[0].number).toBe(3);
  });

  it('an overflow compaction drops the text streamed since the last tool call, which is answered again', () => {
    const overflow = { ...auto, reason: 'overflow' };
    const s = reduceAll([
      { type: 'userMessage', text: 'go on' },
      { type: 'turnStart' },
      ev({ kind: 'text', text: 'Reading.' }),
      ev({ kind: 'toolCall', toolCallId: 't1', toolName: 'read_file', input: { path: 'a.go' } }),
      ev({ kind: 'toolResult', toolCallId: 't1', toolName: 'read_file', result: { content: 'package a' } }),
      ev({ kind: 'thinking', text: 'Hmm' }),
      ev({ kind: 'text', text: 'The answer that was dro' }),
      ev({ kind: 'compaction', compaction: overflow, text: 'compacted' }),
      ev({ kind: 'text', text: 'The answer.' }),
    ]);
    const items = s.turns[0].items;
    expect(items.map((i) => i.kind)).toEqual(['text', 'tool', 'compaction', 'text']);
    expect(items[0]).toEqual({ kind: 'text', text: 'Reading.' });
    expect(items[3]).toEqual({ kind: 'text', text: 'The answer.' });
  });

  it('a loaded session shows its compactions first and the summary on the one that summarised', () => {
    const f = compactFixture();
    const turns = historyTurns(f.history, 1);
    expect(turns.map((t) => (t.between ? 'compaction' : 'turn'))).toEqual(['compaction', 'turn']);
    const item = turns[0].items[0] as CompactionItem;
    expect(item.compaction).toEqual(f.history.compactions![0]);
    expect(item.summary).toMatch(/^\[Compacted history\]/);
    expect(item.summary).toContain('multiply each price by Qty');
    // The summary is not a user message; the kept answer is a turn of its own.
    expect(turns[1].user).toBeUndefined();
    expect(turns[1].items).toEqual([{ kind: 'text', text: f.history.messages[1].blocks[0].text }]);
    const s = reduce(initialState(), { type: 'history', session: f.history });
    expect(new Set(s.turns.map((t) => t.key)).size).toBe(2);
    expect(s.nextKey).toBe(3);
  });

  it('a summary without a record, and masking-only records, still show', () => {
    const masked: Compaction = { ...auto, summarised: 0 };
    const summary = '[Compacted history] earlier';
    const turns = historyTurns(
      {
        id: 's',
        created: '',
        updated: '',
        title: '',
        turns: 2,
        compactions: [masked],
        messages: [
          { role: 'user', blocks: [{ kind: 'text', text: summary }] },
          { role: 'assistant', blocks: [{ kind: 'text', text: 'ok' }] },
        ],
      },
      1,
    );
    expect(turns.map((t) => t.items[0])).toEqual([
      { kind: 'compaction', compaction: masked },
      { kind: 'compaction', summary },
      { kind: 'text', text: 'ok' },
    ]);
  });

  it('a notice, compactEnd with one, and reset clear the compacting flag as they should', () => {
    let s = reduce(initialState(), { type: 'compactStart' });
    s = reduce(s, { type: 'notice', message: 'busy' });
    expect(s).toMatchObject({ compacting: true, notice: 'busy' });
    expect(reduce(s, { type: 'compactEnd', notice: 'Nothing to compact yet' })).toMatchObject({ compacting: false, notice: 'Nothing to compact yet' });
    expect(reduce(s, { type: 'reset' }).compacting).toBe(false);
  });

  it('compaction texts', () => {
    const it0: CompactionItem = { kind: 'compaction', compaction: auto };
    expect(compactionTitle(it0)).toBe('Compacted 172,000 → 41,000 tokens');
    expect(compactionDetail(auto)).toBe('12 tool results masked, 40 messages summarised');
    expect(compactionDetail({ ...auto, masked: 1, summarised: 0 })).toBe('1 tool result masked');
    expect(compactionDetail({ ...auto, reason: 'overflow', masked: 0, summarised: 0, clipped: 1 })).toBe('1 tool result cut');
    expect(compactionReason(auto)).toBe('the conversation was close to the context window');
    expect(compactionReason({ ...auto, reason: 'manual', focus: 'the Qty fix' })).toBe('compacted on request (focus: the Qty fix)');
    expect(compactionReason({ ...auto, reason: 'later' })).toBe('later');
    expect(compactionTitle({ kind: 'compaction', summary: 'x' })).toBe('Earlier conversation summarised');
    expect(compactionTitle({ kind: 'compaction', text: 'compacted the conversation (auto)' })).toBe('compacted the conversation (auto)');
  });
});

describe('presentation helpers', () => {
  it('toolSummary picks the telling argument', () => {
    expect(toolSummary({ command: 'go test ./...', timeout_seconds: 30 })).toBe('go test ./...');
    expect(toolSummary({ path: 'cart/cart.go', old_string: 'a', new_string: 'b' })).toBe('cart/cart.go');
    expect(toolSummary({ pattern: 'Total\\(' })).toBe('Total\\(');
    expect(toolSummary({})).toBe('');
    expect(toolSummary(undefined)).toBe('');
    expect(toolSummary({ depth: 2 })).toBe('{"depth":2}');
    expect(toolSummary({ command: 'x'.repeat(200) }, 20)).toHaveLength(20);
  });

  it('usageText', () => {
    expect(usageText({ inputTokens: 7600, outputTokens: 250, cacheReadTokens: 4200 })).toBe('7,600 in · 250 out · 4,200 cached');
    expect(usageText({ inputTokens: 1, outputTokens: 2 })).toBe('1 in · 2 out');
    expect(usageText(undefined)).toBe('');
  });

  it('fileLabel', () => {
    expect(fileLabel('file:///home/dev/shop/cart/cart.go')).toBe('cart/cart.go');
    expect(fileLabel('file:///home/dev/my%20shop/a.go')).toBe('my shop/a.go');
  });

  it('splitUserText', () => {
    expect(splitUserText('hello')).toEqual({ text: 'hello' });
    expect(splitUserText('Why?\n\nContext: shop/a.go, lines 3-4:\n```\nx\n```\n')).toEqual({ text: 'Why?', context: 'shop/a.go:3-4' });
    expect(splitUserText('Why?\n\nContext: shop/a.go\nDiagnostics:\n- x')).toEqual({ text: 'Why?', context: 'shop/a.go' });
  });

  it('stopReasonText', () => {
    expect(stopReasonText('end_turn')).toBe('');
    expect(stopReasonText('max_tokens')).toMatch(/token limit/);
    expect(stopReasonText('somethingElse')).toBe('somethingElse');
  });
});
