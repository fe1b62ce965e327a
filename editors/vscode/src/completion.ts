// Inline completion (ghost text): VS Code's InlineCompletionItemProvider
// over the server's textDocument/inlineCompletion (docs/protocol.md,
// "Inline completion and next-edit proposals") and the on/off/snoozed
// switch kept per workspace; the markdown of parley/completionContext is
// completionContext.ts.
//
// The provider is our own rather than vscode-languageclient 9.0.1's
// InlineCompletionItemFeature: that one is a proposed feature built on the
// 3.17 draft (it sends VS Code's trigger kinds 0/1 where LSP 3.18 says 1/2
// and passes the selected completion's range unconverted), and it gives no
// way to see which item was shown, partly accepted or dismissed.
//
// Safe for use from one thread (the extension host's).

import * as vscode from 'vscode';
import {
  COMPLETION_ACCEPTED,
  type CompletionEvent,
  type CompletionEventKind,
  type InlineCompletionItemWire,
  type InlineCompletionParams,
  type InlineCompletionResult,
  InlineTrigger,
  type LspCommand,
  type LspPosition,
  type LspRange,
  Methods,
} from './protocol';

/** The command each item carries in VS Code: it forwards the server's command (see acceptCommand). */
export const ACCEPT_COMMAND = 'parley.completion.didAccept';

const SERVER_NOT_INITIALIZED = -32002;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
const REQUEST_CANCELLED = -32800;
/** vscode-jsonrpc's code for a request on a connection that is gone or not yet there. */
const CONNECTION_INACTIVE = -32099;

/**
 * Errors that are outcomes, not problems, for a request made at each
 * keystroke: cancelled, a server starting or gone, a document outside the
 * workspace folders (InvalidParams).
 */
export const QUIET_ERRORS: ReadonlySet<number> = new Set([REQUEST_CANCELLED, CONNECTION_INACTIVE, SERVER_NOT_INITIALIZED, INVALID_PARAMS]);

/** What the provider needs of the language client (LanguageClient has all of it). */
export interface CompletionClient {
  sendRequest<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R>;
  sendNotification(method: string, params?: unknown): Promise<void>;
  readonly code2ProtocolConverter: {
    asUri(uri: vscode.Uri): string;
    asPosition(p: vscode.Position): LspPosition;
    asRange(r: vscode.Range): LspRange;
  };
  readonly protocol2CodeConverter: {
    asRange(r: LspRange): vscode.Range;
  };
}

// ---- the switch: on, off, snoozed ----

export type CompletionMode = 'on' | 'off' | 'snoozed';

interface StoredState {
  mode: 'on' | 'off' | 'snoozed';
  /** Epoch milliseconds a snooze ends at. */
  until?: number;
}

export const STATE_KEY = 'parley.completion.state';
export const DEFAULT_SNOOZE_MINUTES = 15;

/**
 * The user's switch for inline completion, kept in the workspace's
 * memento. A snooze that has run out reads as on.
 */
export class CompletionState {
  constructor(
    private readonly memento: Pick<vscode.Memento, 'get' | 'update'>,
    private readonly now: () => number = Date.now,
  ) {}

  private stored(): StoredState {
    const s = this.memento.get<StoredState>(STATE_KEY);
    return s && (s.mode === 'on' || s.mode === 'off' || s.mode === 'snoozed') ? s : { mode: 'on' };
  }

  mode(): CompletionMode {
    const s = this.stored();
    if (s.mode === 'snoozed') {
      return (s.until ?? 0) > this.now() ? 'snoozed' : 'on';
    }
    return s.mode;
  }

  /** Milliseconds left of a snooze (0 when not snoozed). */
  remaining(): number {
    const s = this.stored();
    return s.mode === 'snoozed' ? Math.max(0, (s.until ?? 0) - this.now()) : 0;
  }

  /** On → off; off or snoozed → on. Returns the new mode. */
  async toggle(): Promise<CompletionMode> {
    const next: CompletionMode = this.mode() === 'on' ? 'off' : 'on';
    await this.memento.update(STATE_KEY, { mode: next } satisfies StoredState);
    return next;
  }

  async set(mode: 'on' | 'off'): Promise<void> {
    await this.memento.update(STATE_KEY, { mode } satisfies StoredState);
  }

  async snooze(minutes: number): Promise<void> {
    await this.memento.update(STATE_KEY, { mode: 'snoozed', until: this.now() + minutes * 60_000 } satisfies StoredState);
  }
}

export interface CompletionStatusView {
  text: string;
  tooltip: string;
}

/** The status bar item: the switch, and whether the setting turned completion off. */
export function completionStatus(mode: CompletionMode, remainingMs: number, settingEnabled: boolean): CompletionStatusView {
  if (!settingEnabled) {
    return {
      text: '$(circle-slash) completion off',
      tooltip: 'parley inline completion is off: the parley.completion.enabled setting is false.',
    };
  }
  switch (mode) {
    case 'on':
      return {
        text: '$(sparkle) completion on',
        tooltip: 'parley inline completion and next-edit proposals are on. Click to turn them off or snooze them.',
      };
    case 'off':
      return {
        text: '$(circle-slash) completion off',
        tooltip: 'parley inline completion and next-edit proposals are off in this workspace. Click to turn them on.',
      };
    case 'snoozed': {
      const min = Math.max(1, Math.ceil(remainingMs / 60_000));
      return {
        text: `$(clock) completion snoozed ${min} min`,
        tooltip: `parley inline completion and next-edit proposals are snoozed for ${min} more minute${min === 1 ? '' : 's'}. Click to turn them back on.`,
      };
    }
  }
}

/** Minutes typed into the snooze box: a positive number, at most a day. */
export function parseMinutes(s: string | undefined): number | undefined {
  if (s === undefined) {
    return undefined;
  }
  const t = s.trim();
  if (t === '') {
    return DEFAULT_SNOOZE_MINUTES;
  }
  const n = Number(t);
  return Number.isFinite(n) && n > 0 && n <= 24 * 60 ? n : undefined;
}

// ---- the provider ----

export interface LastCompletion {
  id: string | number;
  /** The document (protocol URI) and its language. */
  uri: string;
  languageId: string;
}

export interface ProviderHost {
  /** The running client, or undefined. */
  client(): CompletionClient | undefined;
  /** The switch and the setting: false answers nothing without asking the server. */
  active(): boolean;
  log(message: string): void;
}

/** VS Code's proposed inlineCompletionsAdditions callbacks' arguments (not in @types/vscode 1.90). */
interface PartialAcceptInfo {
  acceptedLength: number;
}
interface EndOfLifeReason {
  kind: number; // Accepted 0, Rejected 1, Ignored 2
}
const END_OF_LIFE_REJECTED = 1;

/** What we know of one item the server returned. */
interface Tracked {
  id: string | number;
  /** The document it was for (protocol URI) and its language. */
  uri: string;
  languageId: string;
  shown: boolean;
  /** Accepted or dismissed: nothing more is reported. */
  ended: boolean;
  partial: number;
}

/** How many items' event state is kept (the editor shows one at a time). */
const TRACKED_MAX = 64;

/** The items returned last: for which document version, and whether one of them ended. */
interface LastList {
  uri: string;
  version: number;
  /** How many items; those with an id are tracked. */
  count: number;
  items: Set<Tracked>;
  ended: boolean;
}

/**
 * Asks the server for inline completions and reports what became of
 * them: acceptance through the item's command (workspace/executeCommand
 * of the server's parley.completion.accepted), and — where VS Code gives
 * the proposed inlineCompletionsAdditions callbacks to the extension —
 * shown, partial and dismissed as parley/completionEvent.
 */
export class CompletionProvider implements vscode.InlineCompletionItemProvider {
  private readonly items = new WeakMap<vscode.InlineCompletionItem, Tracked>();
  private readonly tracked = new Map<string, Tracked>();
  private readonly unsupported = new WeakSet<object>();
  private readonly pendingPartial = new Map<Tracked, number>();
  private last?: Tracked;
  private lastList?: LastList;

  constructor(private readonly host: ProviderHost) {}

  /**
   * Whether ghost text of ours may be showing in the document (protocol
   * URI) at this version: the last request answered items for that very
   * version and none of them was accepted, dismissed or dropped since (as
   * far as VS Code tells: without the inlineCompletionsAdditions proposal,
   * items count as showing until the document changes).
   */
  showingIn(uri: string, version: number): boolean {
    const l = this.lastList;
    return !!l && l.uri === uri && l.version === version && l.count > 0 && !l.ended;
  }

  private ended(t: Tracked): void {
    if (this.lastList?.items.has(t)) {
      this.lastList.ended = true;
    }
  }

  /** The item shown or returned most recently: its id and document. */
  lastCompletion(): LastCompletion | undefined {
    return this.last && { id: this.last.id, uri: this.last.uri, languageId: this.last.languageId };
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionList | undefined> {
    this.lastList = undefined;
    if (!this.host.active() || token.isCancellationRequested) {
      return undefined;
    }
    const client = this.host.client();
    if (!client || this.unsupported.has(client)) {
      return undefined;
    }
    const c2p = client.code2ProtocolConverter;
    const sel = context.selectedCompletionInfo;
    const params: InlineCompletionParams = {
      textDocument: { uri: c2p.asUri(document.uri) },
      position: c2p.asPosition(position),
      context: {
        triggerKind: context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke ? InlineTrigger.invoked : InlineTrigger.automatic,
        ...(sel ? { selectedCompletionInfo: { range: c2p.asRange(sel.range), text: sel.text } } : {}),
      },
    };
    let result: InlineCompletionResult;
    try {
      result = await client.sendRequest<InlineCompletionResult>(Methods.inlineCompletion, params, token);
    } catch (e) {
      const code = (e as { code?: unknown })?.code;
      if (code === METHOD_NOT_FOUND) {
        this.unsupported.add(client);
        this.host.log('parley: this server does not answer textDocument/inlineCompletion; inline completion is off until it restarts.');
      } else if (!QUIET_ERRORS.has(code as number) && !token.isCancellationRequested) {
        this.host.log(`textDocument/inlineCompletion: ${e instanceof Error ? e.message : String(e)}`);
      }
      return undefined;
    }
    if (token.isCancellationRequested || !result) {
      return undefined;
    }
    const wire = Array.isArray(result) ? result : (result.items ?? []);
    const items: vscode.InlineCompletionItem[] = [];
    for (const w of wire) {
      const item = this.toItem(client, w, params.textDocument.uri, document.languageId);
      if (item) {
        items.push(item);
      }
    }
    const first = items.length > 0 ? this.items.get(items[0]) : undefined;
    if (first) {
      this.last = first;
    }
    const tracked = new Set<Tracked>();
    for (const it of items) {
      const t = this.items.get(it);
      if (t) {
        tracked.add(t);
      }
    }
    this.lastList = { uri: params.textDocument.uri, version: document.version, count: items.length, items: tracked, ended: false };
    return new vscode.InlineCompletionList(items);
  }

  private toItem(client: CompletionClient, w: InlineCompletionItemWire, uri: string, languageId: string): vscode.InlineCompletionItem | undefined {
    let text: string | vscode.SnippetString;
    if (typeof w.insertText === 'string') {
      text = w.insertText;
    } else if (w.insertText && typeof w.insertText.value === 'string') {
      text = new vscode.SnippetString(w.insertText.value);
    } else {
      return undefined;
    }
    const range = w.range ? client.protocol2CodeConverter.asRange(w.range) : undefined;
    const command = w.command ? acceptCommandFor(w.command) : undefined;
    const item = new vscode.InlineCompletionItem(text, range, command);
    if (w.filterText) {
      item.filterText = w.filterText;
    }
    const id = completionId(w.command);
    if (id !== undefined) {
      this.items.set(item, this.track(id, uri, languageId));
    }
    return item;
  }

  private track(id: string | number, uri = '', languageId = ''): Tracked {
    const key = String(id);
    let t = this.tracked.get(key);
    if (!t) {
      t = { id, uri, languageId, shown: false, ended: false, partial: 0 };
      this.tracked.set(key, t);
      if (this.tracked.size > TRACKED_MAX) {
        this.tracked.delete(this.tracked.keys().next().value as string);
      }
    }
    return t;
  }

  private notify(t: Tracked, event: CompletionEventKind, chars?: number): void {
    const client = this.host.client();
    if (!client) {
      return;
    }
    const params: CompletionEvent = chars === undefined ? { id: t.id, event } : { id: t.id, event, chars };
    client.sendNotification(Methods.completionEvent, params).catch((e: unknown) => {
      this.host.log(`parley/completionEvent: ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  /** The item's command ran: VS Code inserted the whole item. */
  async accepted(command: LspCommand | undefined): Promise<void> {
    if (!command) {
      return;
    }
    const id = completionId(command);
    if (id !== undefined) {
      const t = this.track(id);
      t.ended = true;
      this.ended(t);
    }
    const client = this.host.client();
    if (!client) {
      return;
    }
    try {
      await client.sendRequest('workspace/executeCommand', { command: command.command, arguments: command.arguments ?? [] });
    } catch (e) {
      this.host.log(`${command.command}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  // The proposed inlineCompletionsAdditions API. VS Code calls these only
  // for an extension the proposal is granted to (code-server grants the
  // proposals an extension declares; VS Code stable grants none without
  // --enable-proposed-api).

  handleDidShowCompletionItem(item: vscode.InlineCompletionItem): void {
    const t = this.items.get(item);
    if (!t || t.shown || t.ended) {
      return;
    }
    t.shown = true;
    this.last = t;
    this.notify(t, 'shown');
  }

  /**
   * VS Code 1.100 calls this twice per partial accept: with the accepted
   * length, then with {kind, acceptedLength}; older versions only with the
   * length. Both calls come in one turn of the event loop: the last one
   * wins and one event is sent.
   */
  handleDidPartiallyAcceptCompletionItem(item: vscode.InlineCompletionItem, info: number | PartialAcceptInfo): void {
    const t = this.items.get(item);
    const chars = typeof info === 'number' ? info : info?.acceptedLength;
    if (!t || t.ended || typeof chars !== 'number') {
      return;
    }
    const pending = this.pendingPartial.has(t);
    this.pendingPartial.set(t, chars);
    if (!pending) {
      queueMicrotask(() => {
        const n = this.pendingPartial.get(t);
        this.pendingPartial.delete(t);
        if (n !== undefined && n > t.partial) {
          t.partial = n;
          this.notify(t, 'partial', n);
        }
      });
    }
  }

  handleDidRejectCompletionItem(item: vscode.InlineCompletionItem): void {
    this.dismissed(item);
  }

  handleEndOfLifetime(item: vscode.InlineCompletionItem, reason: EndOfLifeReason): void {
    if (reason?.kind === END_OF_LIFE_REJECTED) {
      this.dismissed(item);
    }
    // Accepted, rejected or ignored: no longer shown.
    const t = this.items.get(item);
    if (t) {
      this.ended(t);
    }
  }

  private dismissed(item: vscode.InlineCompletionItem): void {
    const t = this.items.get(item);
    if (t) {
      this.ended(t);
    }
    if (!t || t.ended) {
      return;
    }
    t.ended = true;
    this.notify(t, 'dismissed');
  }
}

/** The id in the server's parley.completion.accepted command ({id} as its first argument). */
export function completionId(command: LspCommand | undefined): string | number | undefined {
  if (!command || command.command !== COMPLETION_ACCEPTED) {
    return undefined;
  }
  const a = command.arguments?.[0] as { id?: unknown } | undefined;
  const id = a && typeof a === 'object' ? a.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * The item's command in VS Code: the server's command, forwarded by our
 * own (ACCEPT_COMMAND) so that the acceptance is recorded here and reaches
 * the server whether or not the language client registered the server's
 * command. Commands of other names are left as they are.
 */
export function acceptCommandFor(command: LspCommand): vscode.Command {
  if (command.command !== COMPLETION_ACCEPTED) {
    return { title: command.title, command: command.command, arguments: command.arguments };
  }
  return { title: command.title || 'parley: completion accepted', command: ACCEPT_COMMAND, arguments: [command] };
}

// ---- parley/completionContext as markdown ----
