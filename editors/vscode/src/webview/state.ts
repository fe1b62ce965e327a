// The chat view's state and the pure reducer that builds it from the
// extension's messages (parley/event notifications, turn boundaries,
// session history). No DOM, no vscode: unit-tested in Node and bundled into
// the webview page.

import { type ChangeEvent, type ChatEvent, type Compaction, type HookReport, type MCPReport, type MentionReport, type SessionHistory, type SessionSummary, type ToolOutcome, type Usage, SUMMARY_HEADER } from '../protocol';
import type { ContextInfo, ToView } from './messages';
import { splitMentions } from './mentionText';

export interface TextItem {
  kind: 'text';
  text: string;
}
export interface ThinkingItem {
  kind: 'thinking';
  text: string;
}
export interface ToolItem {
  kind: 'tool';
  id: string;
  name: string;
  input: unknown;
  result?: ToolOutcome;
}
export interface EditItem {
  kind: 'edit';
  toolCallId?: string;
  toolName?: string;
  changes: ChangeEvent[];
}
/** A compaction of the session's history (the compaction event, or a past one from parley/session). */
export interface CompactionItem {
  kind: 'compaction';
  /** The record; absent for a summary whose record the session lacks. */
  compaction?: Compaction;
  /** The server's one-line description. */
  text?: string;
  /** The message that replaced the compacted history (a loaded session's). */
  summary?: string;
}
/** A hook run that did not end ok (blocked, failed, timed out, or refused as not approved). */
export interface HookItem {
  kind: 'hook';
  hook: HookReport;
  /** The server's one-line description. */
  text?: string;
}
/** An MCP server that failed to start, crashed, or is being restarted. */
export interface McpItem {
  kind: 'mcp';
  mcp: MCPReport;
  /** The server's one-line description. */
  text?: string;
}
export type Item = TextItem | ThinkingItem | ToolItem | EditItem | CompactionItem | HookItem | McpItem;

export interface Turn {
  /** Unique within the view (turn numbers repeat across sessions). */
  key: number;
  /** The server's turn number, once known. */
  number?: number;
  /** images: the names of the images sent with the message. */
  user?: { text: string; context?: ContextInfo; images?: string[] };
  /** What the user message's @-mentions added (the mentions event). */
  mentions?: MentionReport[];
  items: Item[];
  /** Running total of the model calls while streaming; the turn's total once done. */
  usage?: Usage;
  stopReason?: string;
  error?: string;
  done: boolean;
  /**
   * Not a turn but an entry between turns: a compaction that ran outside
   * any turn (parley/compact, or a past one of a loaded session).
   */
  between?: boolean;
}

export interface Approval {
  id: number;
  message: string;
  actions: string[];
}

export interface ViewState {
  session?: string;
  title?: string;
  turns: Turn[];
  running: boolean;
  sessions: SessionSummary[];
  sessionsOpen: boolean;
  context?: ContextInfo;
  includeContext: boolean;
  approvals: Approval[];
  /** A parley/compact request is running. */
  compacting: boolean;
  /** A failure outside any turn (loading a session, say). */
  notice?: string;
  server: 'starting' | 'running' | 'stopped';
  serverMessage?: string;
  nextKey: number;
}

/** Actions the page performs on itself (not sent by the extension). */
export type LocalAction = { type: 'toggleSessions'; open?: boolean } | { type: 'dismissNotice' };

export type Action = ToView | LocalAction;

export function initialState(): ViewState {
  return {
    turns: [],
    running: false,
    sessions: [],
    sessionsOpen: false,
    includeContext: true,
    approvals: [],
    compacting: false,
    server: 'running',
    nextKey: 1,
  };
}

export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!b) {
    return a;
  }
  if (!a) {
    return { ...b };
  }
  const out: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  const cr = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const cw = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  if (cr) {
    out.cacheReadTokens = cr;
  }
  if (cw) {
    out.cacheWriteTokens = cw;
  }
  return out;
}

function replaceLast<T>(list: T[], item: T): T[] {
  const out = list.slice(0, -1);
  out.push(item);
  return out;
}

/**
 * The turn an event belongs to: the last one when it is still open (or is
 * the same server turn), else a new one (a code action's turn has no user
 * message of its own).
 */
function turnFor(s: ViewState, e: ChatEvent): { state: ViewState; turn: Turn } {
  const last = s.turns[s.turns.length - 1];
  if (last && (!last.done || (last.number !== undefined && last.number === e.turn))) {
    return { state: s, turn: last };
  }
  const turn: Turn = { key: s.nextKey, number: e.turn, items: [], done: false };
  return { state: { ...s, nextKey: s.nextKey + 1, turns: [...s.turns, turn] }, turn };
}

function withTurn(s: ViewState, turn: Turn): ViewState {
  const i = s.turns.findIndex((t) => t.key === turn.key);
  const turns = s.turns.slice();
  turns[i] = turn;
  return { ...s, turns };
}

function appendStream(items: Item[], kind: 'text' | 'thinking', text: string): Item[] {
  const last = items[items.length - 1];
  if (last && last.kind === kind) {
    return replaceLast(items, { kind, text: last.text + text });
  }
  return [...items, { kind, text }];
}

/**
 * A compaction event: inside the running turn it is one of its items (an
 * overflow compaction also drops the answer text streamed since the last
 * tool call, which the server says was dropped and is answered again);
 * outside a turn (parley/compact) it is an entry of its own.
 */
function applyCompaction(s: ViewState, e: ChatEvent): ViewState {
  const item: CompactionItem = { kind: 'compaction', compaction: e.compaction, text: e.text };
  const last = lastOpenTurn(s);
  if (!last) {
    const entry: Turn = { key: s.nextKey, items: [item], done: true, between: true };
    return { ...s, nextKey: s.nextKey + 1, turns: [...s.turns, entry] };
  }
  let items = last.items;
  if (e.compaction?.reason === 'overflow') {
    let n = items.length;
    while (n > 0 && (items[n - 1].kind === 'text' || items[n - 1].kind === 'thinking')) {
      n--;
    }
    items = items.slice(0, n);
  }
  return withTurn(s, { ...last, number: last.number ?? e.turn, items: [...items, item] });
}

/**
 * A hook event: only a run that did not end ok is shown, as the terminal
 * shows it. Inside a turn it is one of its items; outside one (PreCompact
 * of parley/compact) an entry of its own.
 */
function applyHook(s: ViewState, e: ChatEvent): ViewState {
  if (!e.hook || e.hook.outcome === 'ok') {
    return s;
  }
  const item: HookItem = { kind: 'hook', hook: e.hook, text: e.text };
  const last = lastOpenTurn(s);
  if (!last) {
    const entry: Turn = { key: s.nextKey, items: [item], done: true, between: true };
    return { ...s, nextKey: s.nextKey + 1, turns: [...s.turns, entry] };
  }
  return withTurn(s, { ...last, number: last.number ?? e.turn, items: [...last.items, item] });
}

/**
 * An mcp event: servers belong to the workspace, so it comes with or
 * without a session; inside the running turn it is one of its items
 * (a restart on a tool call), outside one an entry of its own.
 */
function applyMcp(s: ViewState, e: ChatEvent): ViewState {
  if (!e.mcp) {
    return s;
  }
  const item: McpItem = { kind: 'mcp', mcp: e.mcp, text: e.text };
  const last = lastOpenTurn(s);
  if (!last) {
    const entry: Turn = { key: s.nextKey, items: [item], done: true, between: true };
    return { ...s, nextKey: s.nextKey + 1, turns: [...s.turns, entry] };
  }
  return withTurn(s, { ...last, items: [...last.items, item] });
}

/** Applies one parley/event. */
export function applyEvent(s0: ViewState, e: ChatEvent): ViewState {
  let s = s0;
  if (!s.session && e.session) {
    s = { ...s, session: e.session };
  }
  if (e.kind === 'compaction') {
    return applyCompaction(s, e);
  }
  if (e.kind === 'hook') {
    return applyHook(s, e);
  }
  if (e.kind === 'mcp') {
    return applyMcp(s, e);
  }
  const found = turnFor(s, e);
  s = found.state;
  let t: Turn = { ...found.turn };
  if (t.number === undefined) {
    t.number = e.turn;
  }
  switch (e.kind) {
    case 'text':
    case 'thinking':
      if (e.text) {
        t.items = appendStream(t.items, e.kind, e.text);
      }
      break;
    case 'toolCall':
      t.items = [...t.items, { kind: 'tool', id: e.toolCallId ?? '', name: e.toolName ?? 'tool', input: e.input }];
      break;
    case 'toolResult': {
      const i = findTool(t.items, e.toolCallId);
      if (i >= 0) {
        const items = t.items.slice();
        items[i] = { ...(items[i] as ToolItem), result: e.result ?? { content: '' } };
        t.items = items;
      } else {
        t.items = [
          ...t.items,
          { kind: 'tool', id: e.toolCallId ?? '', name: e.toolName ?? 'tool', input: undefined, result: e.result ?? { content: '' } },
        ];
      }
      break;
    }
    case 'edit':
      t.items = [...t.items, { kind: 'edit', toolCallId: e.toolCallId, toolName: e.toolName, changes: e.changes ?? [] }];
      break;
    case 'usage':
      if (!t.done) {
        t.usage = addUsage(t.usage, e.usage);
      }
      break;
    case 'error':
      t.error = e.error ?? 'unknown error';
      break;
    case 'mentions':
      t.mentions = e.mentions ?? [];
      break;
    case 'done':
      t.done = true;
      t.stopReason = e.stopReason;
      if (e.usage) {
        t.usage = e.usage;
      }
      s = { ...s, running: false };
      break;
    default:
      return s0; // an event kind this version does not know
  }
  return withTurn(s, t);
}

function findTool(items: Item[], id: string | undefined): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.kind === 'tool' && it.id === id && it.result === undefined) {
      return i;
    }
  }
  return -1;
}

/**
 * A stored user message holds the text the agent saw: what the user typed,
 * then "\n\nContext: folder/path, lines a-b:" and the quoted code. The view
 * shows the typed part and the context as a label.
 */
export function splitUserText(text: string): { text: string; context?: string } {
  const m = /\n\nContext: ([^\n]*?)(?:, lines (\d+)-(\d+):)?\n/.exec(text + '\n');
  if (!m || m.index === undefined) {
    return { text };
  }
  const label = m[2] ? `${m[1]}:${m[2]}-${m[3]}` : m[1];
  return { text: text.slice(0, m.index), context: label };
}

/**
 * Turns parley/session's history into finished turns. The session's
 * compactions come first, as entries of their own: a record does not say
 * where in the history it happened, and the messages before a summarising
 * compaction are gone anyway. The summary message is shown on the latest
 * record that summarised, not as a user message.
 */
export function historyTurns(h: SessionHistory, firstKey: number): Turn[] {
  const turns: Turn[] = [];
  let cur: Turn | undefined;
  let key = firstKey;
  let n = 0;
  for (const c of h.compactions ?? []) {
    turns.push({ key: key++, items: [{ kind: 'compaction', compaction: c }], done: true, between: true });
  }
  for (const m of h.messages ?? []) {
    const blocks = m.blocks ?? [];
    const summary = m.role === 'user' ? blocks.find((b) => b.kind === 'text' && (b.text ?? '').startsWith(SUMMARY_HEADER)) : undefined;
    if (summary) {
      attachSummary(turns, summary.text ?? '', () => key++);
      cur = undefined;
      continue;
    }
    if (m.role === 'user') {
      for (const b of blocks) {
        if (b.kind === 'tool_result') {
          if (!cur) {
            continue;
          }
          const i = findTool(cur.items, b.toolCallId);
          if (i >= 0) {
            cur.items[i] = { ...(cur.items[i] as ToolItem), result: { content: b.text ?? '', isError: b.isError } };
          }
        }
      }
      const text = blocks
        .filter((b) => b.kind === 'text')
        .map((b) => b.text ?? '')
        .join('\n');
      const images = blocks.filter((b) => b.kind === 'image').map((b) => b.name || 'image');
      if (text !== '' || images.length > 0) {
        const u = splitUserText(text);
        const m = splitMentions(u.text);
        n++;
        cur = {
          key: key++,
          number: n,
          user: { text: m.text, context: u.context ? { label: u.context, uri: '' } : undefined, ...(images.length > 0 ? { images } : {}) },
          mentions: m.mentions,
          items: [],
          done: true,
        };
        turns.push(cur);
      }
      continue;
    }
    if (!cur) {
      n++;
      cur = { key: key++, number: n, items: [], done: true };
      turns.push(cur);
    }
    for (const b of blocks) {
      switch (b.kind) {
        case 'text':
          if (b.text) {
            cur.items = appendStream(cur.items, 'text', b.text);
          }
          break;
        case 'thinking':
          if (b.text) {
            cur.items = appendStream(cur.items, 'thinking', b.text);
          }
          break;
        case 'tool_use':
          cur.items = [...cur.items, { kind: 'tool', id: b.toolCallId ?? '', name: b.toolName ?? 'tool', input: b.input }];
          break;
      }
    }
  }
  return turns;
}

/** Puts a loaded session's summary on the latest summarising compaction entry (a new entry when there is none). */
function attachSummary(turns: Turn[], summary: string, nextKey: () => number): void {
  for (let i = turns.length - 1; i >= 0; i--) {
    const it = turns[i].items[0];
    if (turns[i].between && it?.kind === 'compaction' && (it.compaction?.summarised ?? 0) > 0 && it.summary === undefined) {
      turns[i] = { ...turns[i], items: [{ ...it, summary }] };
      return;
    }
  }
  turns.push({ key: nextKey(), items: [{ kind: 'compaction', summary }], done: true, between: true });
}

function lastOpenTurn(s: ViewState): Turn | undefined {
  const last = s.turns[s.turns.length - 1];
  return last && !last.done ? last : undefined;
}

/** The reducer: every change to the view's state goes through here. */
export function reduce(s: ViewState, a: Action): ViewState {
  switch (a.type) {
    case 'event':
      return applyEvent(s, a.event);
    case 'userMessage': {
      const turn: Turn = { key: s.nextKey, user: { text: a.text, context: a.context, images: a.images }, items: [], done: false };
      // A new session is titled by its first message, as the server titles it.
      const title = s.title ?? (s.turns.length === 0 ? titleOf(a.text) : undefined);
      return { ...s, title, nextKey: s.nextKey + 1, turns: [...s.turns, turn], notice: undefined };
    }
    case 'turnStart':
      return { ...s, running: true, notice: undefined };
    case 'turnEnd': {
      let out: ViewState = { ...s, running: false };
      const r = a.result;
      if (r && !out.session) {
        out.session = r.session;
      }
      const t = lastOpenTurn(out);
      if (t) {
        const done: Turn = { ...t, done: true };
        done.stopReason = r?.stopReason ?? (a.cancelled ? 'cancelled' : t.stopReason);
        if (r?.usage) {
          done.usage = r.usage;
        }
        if (r?.error && !done.error) {
          done.error = r.error;
        }
        if (r?.text && !done.items.some((i) => i.kind === 'text')) {
          done.items = [...done.items, { kind: 'text', text: r.text }];
        }
        if (done.number === undefined && r) {
          done.number = r.turn;
        }
        out = withTurn(out, done);
      }
      return out;
    }
    case 'requestError': {
      const t = lastOpenTurn(s);
      if (!t) {
        return { ...s, running: false, notice: a.message };
      }
      return withTurn({ ...s, running: false }, { ...t, done: true, stopReason: 'error', error: t.error ?? a.message });
    }
    case 'reset':
      return {
        ...initialState(),
        sessions: s.sessions,
        context: s.context,
        includeContext: s.includeContext,
        approvals: s.approvals,
        compacting: false,
        server: s.server,
        serverMessage: s.serverMessage,
        nextKey: s.nextKey,
      };
    case 'history': {
      const turns = historyTurns(a.session, s.nextKey);
      return {
        ...s,
        session: a.session.id,
        title: a.session.title,
        turns,
        running: false,
        notice: undefined,
        sessionsOpen: false,
        nextKey: s.nextKey + turns.length,
      };
    }
    case 'sessions': {
      const cur = a.sessions.find((x) => x.id === (a.current ?? s.session));
      return { ...s, sessions: a.sessions, title: cur?.title ?? s.title };
    }
    case 'context':
      return { ...s, context: a.context, includeContext: a.include };
    case 'approval':
      return { ...s, approvals: [...s.approvals.filter((x) => x.id !== a.id), { id: a.id, message: a.message, actions: a.actions }] };
    case 'approvalDone':
      return { ...s, approvals: s.approvals.filter((x) => x.id !== a.id) };
    case 'server':
      return { ...s, server: a.state, serverMessage: a.message, running: a.state === 'running' ? s.running : false };
    case 'notice':
      return { ...s, notice: a.message };
    case 'compactStart':
      return { ...s, compacting: true, notice: undefined };
    case 'compactEnd':
      return { ...s, compacting: false, notice: a.notice ?? s.notice };
    case 'focusInput':
      return s;
    case 'showSessions':
      return { ...s, sessionsOpen: true };
    case 'toggleSessions':
      return { ...s, sessionsOpen: a.open ?? !s.sessionsOpen };
    case 'dismissNotice':
      return { ...s, notice: undefined };
  }
  return s;
}

/** The first non-blank line, cut to 60 characters. */
export function titleOf(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!line) {
    return undefined;
  }
  const chars = [...line];
  return chars.length > 60 ? chars.slice(0, 59).join('') + '…' : line;
}

/** Folds a whole stream of messages (a recorded fixture, say). */
export function reduceAll(messages: Action[], s: ViewState = initialState()): ViewState {
  return messages.reduce(reduce, s);
}
