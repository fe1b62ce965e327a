// Shapes of parley's custom LSP methods, as documented in docs/protocol.md.
// This module has no dependencies so that the webview bundle can share it.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A diagnostic as LSP sends it (only the fields parley reads). */
export interface Diagnostic {
  range: Range;
  message: string;
  severity?: number;
  source?: string;
  code?: string | number;
}

/** parley/chat's context: the file the user is looking at. */
export interface ChatContext {
  uri: string;
  range?: Range;
  diagnostics?: Diagnostic[];
}

export interface ChatParams {
  session?: string;
  message: string;
  context?: ChatContext;
  /** The mentions picked for this message whose text is still in it (see Mention). */
  mentions?: Mention[];
  /** Images that go with the message (pasted or dropped on the chat view). */
  images?: ChatImage[];
}

/** An image of a parley/chat message: base64 data; the server reads it by its content. */
export interface ChatImage {
  mediaType: string;
  data: string;
  name?: string;
}

// ---- @-mentions (docs/protocol.md, "@-mentions") ----

export type MentionKind = 'file' | 'symbol' | 'diagnostics' | 'changes' | 'selection' | 'url';

/** What an @-mention points at; text is exactly what the picker inserted into the message. */
export interface Mention {
  kind: MentionKind | string;
  /** e.g. "@src/net/http/server.go", "@diagnostics", "@url:https://go.dev" */
  text: string;
  /** file: workspace-relative path. */
  path?: string;
  name?: string;
  /** symbol: where it is defined. */
  location?: { uri: string; range: Range };
  /** diagnostics: of the current file or of the workspace. */
  scope?: 'file' | 'workspace';
  /** diagnostics of a file: that file. */
  uri?: string;
  /** url: the address. */
  url?: string;
}

/** One entry of parley/mentionCandidates. */
export interface MentionItem {
  /** Shown in the picker, e.g. "src/net/http/server.go" or "Server.ListenAndServe". */
  label: string;
  /** e.g. "method · net/http/server.go:3343". */
  detail?: string;
  mention: Mention;
}

/** parley/mentionCandidates' params: query is what follows the "@" (may be empty). */
export interface MentionCandidatesParams {
  query: string;
  /** The editor's active document (for @diagnostics of a file). */
  uri?: string;
  limit?: number;
}

export interface MentionCandidatesResult {
  items: MentionItem[];
  incomplete: boolean;
}

/** The mentions event's report of one mention: what it added, in tokens, or why it could not. */
export interface MentionReport {
  kind: string;
  text: string;
  label: string;
  tokens: number;
  error?: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'max_iterations'
  | 'repeated_calls'
  | 'cancelled'
  | 'error'
  | 'hook'
  | string;

export interface ChatResult {
  session: string;
  turn: number;
  stopReason: StopReason;
  usage: Usage;
  text: string;
  error?: string;
}

export interface ToolOutcome {
  content: string;
  isError?: boolean;
}

export interface ChangeEvent {
  op: 'modify' | 'create' | 'delete' | 'rename' | string;
  uri: string;
  newUri?: string;
}

export type EventKind =
  | 'text'
  | 'thinking'
  | 'toolCall'
  | 'toolResult'
  | 'edit'
  | 'usage'
  | 'compaction'
  | 'hook'
  | 'mcp'
  | 'mentions'
  | 'error'
  | 'done';

/** Why a compaction ran: the threshold, the model's overflow error, or parley/compact. */
export type CompactionReason = 'auto' | 'overflow' | 'manual' | string;

/** One compaction of a session's history (the compaction event, parley/compact, parley/session). */
export interface Compaction {
  time: string;
  reason: CompactionReason;
  focus?: string;
  tokensBefore: number;
  tokensAfter: number;
  /** Tool results replaced by a one-line stub. */
  masked: number;
  /** Messages replaced by the model's summary (0 when masking was enough). */
  summarised: number;
  /** Tool results of the last exchange cut to their first lines (an overflow compacting did not cure). */
  clipped?: number;
}

/** How a hook run ended (agent/hooks' Outcome*); refused: a workspace hook not approved yet. */
export type HookOutcome = 'ok' | 'blocked' | 'failed' | 'timeout' | 'refused' | string;

/** One hook run or refusal (the hook event). */
export interface HookReport {
  /** The hook event: PreToolUse, Stop, ... */
  event: string;
  command: string;
  /** The config file the hook came from. */
  source: string;
  outcome: HookOutcome;
  exitCode: number;
  message?: string;
  durationMs: number;
}

/** What happened to an MCP server (the mcp event; see docs/protocol.md). */
export interface MCPReport {
  server: string;
  /** failed (could not start), crashed (restarted on next use), restarting, restarted. */
  state: 'failed' | 'crashed' | 'restarting' | 'restarted' | string;
  error?: string;
  /** For failed: the wait before it is tried again at a turn; absent when it is not retried. */
  retrySeconds?: number;
}

/** parley/compact's params. */
export interface CompactParams {
  session: string;
  focus?: string;
}

/** parley/compact's result; no compaction when there was nothing to compact. */
export interface CompactResult {
  session: string;
  compaction?: Compaction;
}

/** parley/event's params. */
export interface ChatEvent {
  session: string;
  turn: number;
  kind: EventKind | string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  result?: ToolOutcome;
  changes?: ChangeEvent[];
  usage?: Usage;
  stopReason?: StopReason;
  error?: string;
  compaction?: Compaction;
  hook?: HookReport;
  /** The mcp event's report; that event has no session (servers belong to the workspace). */
  mcp?: MCPReport;
  /** The mentions event's reports, one per mention of the turn's message. */
  mentions?: MentionReport[];
}

/** One entry of parley/sessions. */
/** One entry of parley/promptCommands: a /NAME the chat can run. */
export interface PromptCommand {
  name: string;
  description: string;
  argumentHint?: string;
  source: 'workspace' | 'user';
  /** Runs shell lines; needsApproval: they wait for `parley commands approve`. */
  shell?: boolean;
  needsApproval?: boolean;
}

export interface SessionSummary {
  id: string;
  title: string;
  created: string;
  updated: string;
  turns: number;
  running?: boolean;
}

export interface SessionBlock {
  kind: 'text' | 'thinking' | 'tool_use' | 'tool_result' | 'image' | string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  isError?: boolean;
  /** An image block's name (its data is not shown again). */
  name?: string;
}

export interface SessionMessage {
  role: 'user' | 'assistant' | string;
  blocks: SessionBlock[];
}

/** parley/session's result. */
export interface SessionHistory {
  id: string;
  created: string;
  updated: string;
  title: string;
  model?: string;
  turns: number;
  usage?: Usage;
  messages: SessionMessage[];
  /** Each compaction of the history, oldest first. */
  compactions?: Compaction[];
}

/**
 * How the text of the message that replaced a compacted history starts
 * (agent/compact_summary.go's summaryHeader).
 */
export const SUMMARY_HEADER = '[Compacted history]';

export interface FolderStatus {
  root: string;
  files: number;
  symbols: number;
  indexing: boolean;
  done: number;
  total: number;
  runs: number;
  lastRun?: string;
  lastError?: string;
  private?: boolean;
}

/** parley/indexStatus's result. */
export interface IndexStatus {
  files: number;
  symbols: number;
  indexing: boolean;
  lastError?: string;
  folders?: FolderStatus[];
}

export const Methods = {
  chat: 'parley/chat',
  event: 'parley/event',
  sessions: 'parley/sessions',
  session: 'parley/session',
  deleteSession: 'parley/deleteSession',
  compact: 'parley/compact',
  promptCommands: 'parley/promptCommands',
  mentionCandidates: 'parley/mentionCandidates',
  indexStatus: 'parley/indexStatus',
  reindex: 'parley/reindex',
  memoryList: 'parley/memoryList',
  memorySearch: 'parley/memorySearch',
  memoryShow: 'parley/memoryShow',
  memoryAdd: 'parley/memoryAdd',
  memoryEdit: 'parley/memoryEdit',
  memoryForget: 'parley/memoryForget',
  memoryStats: 'parley/memoryStats',
  inlineCompletion: 'textDocument/inlineCompletion',
  completionEvent: 'parley/completionEvent',
  completionContext: 'parley/completionContext',
  nextEdit: 'parley/nextEdit',
  diagnostics: 'parley/diagnostics',
} as const;

// ---- inline completion (docs/protocol.md, "Inline completion and next-edit proposals") ----

/** LSP 3.18's InlineCompletionTriggerKind (VS Code's enum counts from 0). */
export const InlineTrigger = { invoked: 1, automatic: 2 } as const;

export interface LspPosition {
  line: number;
  character: number;
}
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export interface InlineCompletionParams {
  textDocument: { uri: string };
  position: LspPosition;
  context: {
    triggerKind: 1 | 2;
    selectedCompletionInfo?: { range: LspRange; text: string };
  };
}

export interface LspCommand {
  title: string;
  command: string;
  arguments?: unknown[];
}

export interface InlineCompletionItemWire {
  insertText: string | { kind: 'snippet'; value: string };
  filterText?: string;
  range?: LspRange;
  command?: LspCommand;
}

export type InlineCompletionResult = InlineCompletionItemWire[] | { items: InlineCompletionItemWire[] } | null;

/** The command the server puts on each item; it counts the acceptance when it runs. */
export const COMPLETION_ACCEPTED = 'parley.completion.accepted';

export type CompletionEventKind = 'shown' | 'accepted' | 'partial' | 'dismissed';

export interface CompletionEvent {
  id: string | number;
  event: CompletionEventKind;
  chars?: number;
}

/** One piece of context besides the prefix and suffix (agent/complete/fim.Snippet). */
export interface CompletionSnippet {
  path: string;
  start_line: number;
  end_line: number;
  text: string;
  why: string;
}

/** parley/completionContext's result: what the model was given for a completion. */
export interface CompletionContextResult {
  id?: string | number;
  path?: string;
  prefix: string;
  suffix: string;
  context?: CompletionSnippet[] | null;
  tokens?: number;
}

// ---- next-edit proposals (docs/protocol.md, "parley/nextEdit") ----

/** parley/nextEdit's params: the version the client has now and the cursor. */
export interface NextEditParams {
  textDocument: { uri: string; version: number };
  position: LspPosition;
}

/** One edit of a proposal, for the version it was computed against (null: a file not open in the editor). */
export interface NextEditEditWire {
  textDocument: { uri: string; version: number | null };
  range: LspRange;
  newText: string;
}

/** parley/nextEdit's result: no edits (and a reason) when there is no proposal. */
export interface NextEditResult {
  id?: string | number;
  edits: NextEditEditWire[];
  why?: string;
  reason?: string;
  command?: LspCommand;
}

/** The command a proposal carries; the client runs it once it applied the edits. */
export const NEXT_EDIT_ACCEPTED = 'parley.nextEdit.accepted';

/** The memory types (memory.Types). */
export const MemoryTypes = [
  'fact',
  'preference',
  'decision',
  'code_pattern',
  'error_solution',
  'project_context',
  'instruction',
  'note',
] as const;

export type MemoryScope = 'workspace' | 'user';

export interface MemoryAnchor {
  path: string;
  symbol?: string;
  hash?: string;
}

/** A memory as the parley/memory* methods return it. */
export interface Memory {
  /** Its reference: "12" (workspace) or "u12" (user). */
  ref: string;
  id: number;
  content: string;
  type: string;
  importance: number;
  tags?: string[];
  anchors?: MemoryAnchor[];
  scope: MemoryScope | string;
  created: string;
  used?: string;
  updated?: string;
  /** Why its anchors no longer match the code; absent when they do. */
  stale?: string[];
  /** Search only: BM25 score and distinct query words matched. */
  score?: number;
  matched?: number;
}

/** parley/memoryList's params (all optional). */
export interface MemoryFilter {
  types?: string[];
  scope?: MemoryScope;
  tags?: string[];
  stale?: boolean;
}

export interface MemoryAddParams {
  content: string;
  type?: string;
  importance?: number;
  tags?: string[];
  scope?: MemoryScope;
  anchors?: { path: string; symbol?: string }[];
}

export interface MemoryEditParams {
  id: string;
  content?: string;
  type?: string;
  importance?: number;
  tags?: string[];
}

export interface MemoryStoreStats {
  scope: MemoryScope | string;
  available: boolean;
  dir?: string;
  count: number;
  types: Record<string, number>;
  stale: number;
}

/** The commands the server offers as code actions (executeCommandProvider). */
export const ServerCommands = [
  'parley.explain',
  'parley.fix',
  'parley.refactor',
  'parley.addTests',
  'parley.document',
] as const;

/** What the chat view shows for a code action's turn, as the user's line. */
export const ServerCommandTitles: Record<string, string> = {
  'parley.explain': 'Explain',
  'parley.fix': 'Fix',
  'parley.refactor': 'Refactor',
  'parley.addTests': 'Add tests',
  'parley.document': 'Document',
};
