import { describe, expect, it } from 'vitest';
import type { ToView } from '../../src/webview/messages';
import type { ChatEvent, HookReport } from '../../src/protocol';
import { type HookItem, initialState, reduce, reduceAll } from '../../src/webview/state';
import { hookTitle, refusedHint, turnStopText } from '../../src/webview/hookText';
import { turnFixture } from '../fixtures';

// Hook events as lsp/chat.go sends them (agent/hooks.go's hookLine for the text).
function hookEvent(r: Partial<HookReport>, turn = 1): ToView {
  const hook: HookReport = { event: 'PreToolUse', command: 'exit 2', source: '/home/u/.config/parley/config.json', outcome: 'ok', exitCode: 0, durationMs: 3, ...r };
  let text = `hook ${hook.event} \`${hook.command}\`: ${hook.outcome}`;
  if (hook.message) {
    text += `: ${hook.message}`;
  }
  const event: ChatEvent = { session: 's', turn, kind: 'hook', text, hook };
  return { type: 'event', event };
}
const ev = (over: Partial<ChatEvent>): ToView => ({ type: 'event', event: { session: 's', turn: 1, kind: 'text', ...over } });
const start: ToView[] = [{ type: 'userMessage', text: 'run the tests' }, { type: 'turnStart' }];

describe('hook events → view state', () => {
  it('an ok run is not shown; a blocked one is an item of the turn, in order', () => {
    const blocked = hookEvent({ outcome: 'blocked', exitCode: 2, message: 'no shell here' });
    const s = reduceAll([
      ...start,
      hookEvent({ event: 'UserPromptSubmit', command: 'true' }),
      ev({ kind: 'toolCall', toolCallId: 't1', toolName: 'shell', input: { command: 'go test ./...' } }),
      blocked,
      ev({ kind: 'toolResult', toolCallId: 't1', toolName: 'shell', result: { content: 'PreToolUse hook blocked: no shell here', isError: true } }),
      ev({ text: 'The hook refused it.' }),
      ev({ kind: 'done', stopReason: 'end_turn' }),
    ]);
    expect(s.turns).toHaveLength(1);
    const t = s.turns[0];
    expect(t.items.map((i) => i.kind)).toEqual(['tool', 'hook', 'text']);
    expect(t.items[1]).toEqual({ kind: 'hook', hook: (blocked as { event: ChatEvent }).event.hook, text: 'hook PreToolUse `exit 2`: blocked: no shell here' });
    expect(turnStopText(t)).toBe('');
  });

  it.each([
    ['blocked', 'PreToolUse hook blocked'],
    ['failed', 'PreToolUse hook failed'],
    ['timeout', 'PreToolUse hook timed out'],
    ['refused', 'PreToolUse hook not run: workspace hooks are not approved'],
    ['somethingNew', 'PreToolUse hook somethingNew'],
  ])('outcome %s is shown as "%s"', (outcome, title) => {
    const s = reduceAll([...start, hookEvent({ outcome })]);
    const it = s.turns[0].items[0] as HookItem;
    expect(it.kind).toBe('hook');
    expect(hookTitle(it)).toBe(title);
  });

  it('recorded: blocked and refused runs are items in order; the turn a hook ended says why', () => {
    const f = turnFixture('hook');
    const s = reduceAll([
      { type: 'userMessage', text: f.request.params.message },
      { type: 'turnStart' },
      ...f.events.map((event): ToView => ({ type: 'event', event })),
      { type: 'turnEnd', result: f.result ?? undefined },
    ]);
    expect(s.turns).toHaveLength(1);
    const t = s.turns[0];
    expect(t.items.map((i) => (i.kind === 'hook' ? `hook:${i.hook.outcome}` : i.kind))).toEqual([
      'text',
      'tool',
      'tool',
      'hook:blocked',
      'hook:refused',
      'hook:blocked',
      'hook:refused',
    ]);
    const refused = t.items.find((i): i is HookItem => i.kind === 'hook' && i.hook.outcome === 'refused')!;
    expect(refused.hook.source).toBe('/home/dev/shop/.parley/config.json');
    expect(refusedHint(refused)).toContain('/home/dev/shop/.parley/config.json');
    expect(refusedHint(refused)).toContain('`parley hooks approve`, in a terminal');
    expect(t.stopReason).toBe('hook');
    expect(turnStopText(t)).toBe('Stopped by a hook (PreToolUse): enough searching');
    // The model saw the blocking hook's reason in the call's result.
    expect(t.items[1]).toMatchObject({ kind: 'tool', name: 'grep', result: { isError: true, content: expect.stringContaining('no grep in this repository') } });
  });

  it('a turn a hook ended names the hook and its reason', () => {
    const s = reduceAll([
      ...start,
      hookEvent({ event: 'Stop', command: 'echo stop', outcome: 'blocked', message: 'tests fail' }),
      ev({ kind: 'done', stopReason: 'hook' }),
      { type: 'turnEnd', result: { session: 's', turn: 1, stopReason: 'hook', usage: { inputTokens: 1, outputTokens: 1 }, text: '' } },
    ]);
    const t = s.turns[0];
    expect(t.stopReason).toBe('hook');
    expect(turnStopText(t)).toBe('Stopped by a hook (Stop): tests fail');
    // Without a blocking run to name (continue:false without a reason, say) it still says a hook stopped it.
    const bare = reduceAll([...start, ev({ kind: 'done', stopReason: 'hook' })]);
    expect(turnStopText(bare.turns[0])).toBe('Stopped by a hook');
  });

  it('a hook outside a turn (PreCompact of parley/compact) is an entry of its own', () => {
    const done = reduceAll([...start, ev({ text: 'hi' }), ev({ kind: 'done', stopReason: 'end_turn' })]);
    let s = reduce(done, { type: 'compactStart' });
    s = reduce(s, hookEvent({ event: 'PreCompact', outcome: 'failed', exitCode: 1, message: 'exit status 1: boom' }));
    expect(s.turns).toHaveLength(2);
    expect(s.turns[0]).toEqual(done.turns[0]);
    expect(s.turns[1]).toMatchObject({ between: true, done: true, items: [{ kind: 'hook' }] });
  });

  it('a hook event without a report changes nothing', () => {
    const s0 = reduceAll(start, initialState());
    expect(reduce(s0, ev({ kind: 'hook', text: 'x' })).turns).toBe(s0.turns);
  });
});
