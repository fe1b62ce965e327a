// The extension side of the chat view: runs turns (parley/chat and the
// code actions' workspace/executeCommand) with a cancellation token the
// Stop button fires, forwards parley/event to the page, loads, lists and
// deletes sessions, compacts the shown session (parley/compact), asks
// approvals in the view, and keeps a transcript to replay when the page is
// re-created.
//
// It talks to the language client and the view through small interfaces so
// the tests drive it with fakes; vscode is only used for cancellation
// tokens.

import * as vscode from 'vscode';
import {
  type ChatContext,
  type ChatEvent,
  type ChatImage,
  type ChatParams,
  type ChatResult,
  type CompactParams,
  type PromptCommand,
  type CompactResult,
  type Mention,
  type SessionHistory,
  type SessionSummary,
  Methods,
  ServerCommandTitles,
} from './protocol';
import type { ContextInfo, FromView, ToView } from './webview/messages';
import type { CancelToken } from './approvals';
import { ChatApprovals } from './chatApprovals';
import { type ChatHost, type EditorContext, errorMessage, fileName } from './chatHost';
import { MentionCandidates, wantsSelection, withMentions } from './chatMentions';
import { attachUris, imageNames, withImages } from './imageMessages';

export type { ChatClient, ChatHost, ChatViewPort, EditorContext } from './chatHost';

interface Run {
  cts: vscode.CancellationTokenSource;
  /** The session, once known (a new session learns it from its first event). */
  session?: string;
  /** The "done" event arrived: the session takes the next message. */
  doneSeen?: boolean;
  /** Settles when the request has been answered. */
  finished?: Promise<unknown>;
}

export class ChatController implements vscode.Disposable {
  /** The session the view shows; undefined for a new one. */
  session?: string;
  /** The turn the view shows as running. */
  private active?: Run;
  /** Turns still running that the view no longer shows. */
  private readonly background = new Set<Run>();
  /** Messages posted for the shown session, replayed to a new page. */
  private transcript: ToView[] = [];
  private sessions: SessionSummary[] = [];
  private pinned?: EditorContext;
  private includeContext: boolean;
  /** A parley/compact request is running. */
  private compacting = false;
  private readonly approvals: ChatApprovals;
  private readonly mentionCandidates: MentionCandidates;
  private serverState: { state: 'starting' | 'running' | 'stopped'; message?: string } = { state: 'starting' };

  constructor(
    private readonly host: ChatHost,
    options: { includeContext?: boolean } = {},
  ) {
    this.includeContext = options.includeContext ?? true;
    this.approvals = new ChatApprovals(host.view);
    this.mentionCandidates = new MentionCandidates(host);
  }

  get running(): boolean {
    return this.active !== undefined;
  }

  /** Turns in flight, shown or not. */
  get runningCount(): number {
    return (this.active ? 1 : 0) + this.background.size;
  }

  dispose(): void {
    this.active?.cts.cancel();
    for (const r of this.background) {
      r.cts.cancel();
    }
    this.approvals.cancelAll();
    this.mentionCandidates.dispose();
  }

  // ---- messages to the page ----

  /** Posts a message that belongs to the shown session's transcript. */
  private record(m: ToView): void {
    if (m.type === 'reset') {
      this.transcript = [];
    } else {
      this.transcript.push(m);
    }
    this.host.view.post(m);
  }

  private postContext(): void {
    const c = this.pinned ?? this.host.editorContext();
    const info = c ? { ...c.info, pinned: this.pinned !== undefined } : undefined;
    this.host.view.post({ type: 'context', context: info, include: this.includeContext });
  }

  /** The active editor or its selection changed. */
  editorChanged(): void {
    this.postContext();
  }

  setServerState(state: 'starting' | 'running' | 'stopped', message?: string): void {
    this.serverState = { state, message };
    this.host.view.post({ type: 'server', state, message });
    if (state !== 'running') {
      // The connection is gone: its requests fail on their own, but the
      // view must not keep waiting.
      if (this.active) {
        this.record({ type: 'requestError', message: message ?? 'The parley server stopped.' });
        this.active = undefined;
      }
      this.background.clear();
      this.approvals.cancelAll();
      this.changedRunning();
    }
  }

  // ---- the page ----

  async onMessage(m: FromView): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.host.view.post({ type: 'reset' });
        for (const t of this.transcript) {
          this.host.view.post(t);
        }
        this.host.view.post({ type: 'server', ...this.serverState });
        this.host.view.post({ type: 'sessions', sessions: this.sessions, current: this.session });
        this.postContext();
        this.approvals.replay();
        return;
      case 'send':
        await this.send(m.text, m.includeContext, m.mentions, m.images);
        return;
      case 'attachUris':
        await attachUris(this.host, m.uris, (u) => vscode.workspace.fs.readFile(vscode.Uri.parse(u)));
        return;
      case 'stop':
        this.stop();
        return;
      case 'newSession':
        this.newSession();
        return;
      case 'listSessions':
        await this.refreshSessions();
        return;
      case 'openSession':
        await this.openSession(m.id);
        return;
      case 'deleteSession':
        await this.deleteSession(m.id);
        return;
      case 'openFile':
        this.host.openFile(m.uri);
        return;
      case 'openLink':
        this.host.openLink(m.href);
        return;
      case 'approve':
        this.approvals.answer(m.id, m.answer);
        return;
      case 'includeContext':
        this.includeContext = m.include;
        return;
      case 'unpinContext':
        this.pinned = undefined;
        this.postContext();
        return;
      case 'restartServer':
        this.host.restartServer();
        return;
      case 'compact':
        await this.compactAsking();
        return;
      case 'listPromptCommands':
        await this.listPromptCommands();
        return;
      case 'mentionQuery':
        await this.mentionCandidates.query(m.id, m.query);
        return;
    }
  }

  /**
   * Sends the page the prompt commands (parley/promptCommands), read
   * again each time the user starts a message with "/": files added or
   * edited meanwhile count. A server that cannot list them offers none.
   */
  async listPromptCommands(): Promise<void> {
    const client = this.host.client();
    let commands: PromptCommand[] = [];
    if (client) {
      try {
        commands = (await client.sendRequest<PromptCommand[] | null>(Methods.promptCommands, {})) ?? [];
      } catch {
        commands = [];
      }
    }
    this.host.view.post({ type: 'promptCommands', commands });
  }

  // ---- turns ----

  /**
   * Sends the user's message in the shown session (a new one when none)
   * with its @-mentions; "@selection" sends the editor's selection as the
   * context even when the context is not included otherwise.
   */
  async send(text: string, includeContext = this.includeContext, mentions?: Mention[], images?: ChatImage[]): Promise<ChatResult | undefined> {
    if (this.active?.doneSeen) {
      // "done" comes just before the answer; let the answer land first.
      await this.active.finished;
    }
    if (this.active) {
      this.host.view.post({ type: 'requestError', message: 'A turn is already running; stop it or wait for it to end.' });
      return undefined;
    }
    if (this.compacting) {
      this.host.view.post({ type: 'requestError', message: 'The conversation is being compacted; send your message when it is done.' });
      return undefined;
    }
    const ctx = this.pinned ?? (includeContext || wantsSelection(mentions) ? this.host.editorContext() : undefined);
    this.pinned = undefined;
    const params: ChatParams = withImages(withMentions({ message: text }, mentions), images);
    if (this.session) {
      params.session = this.session;
    }
    if (ctx) {
      params.context = ctx.context;
    }
    this.record({ type: 'userMessage', text, context: ctx?.info, ...imageNames(images) });
    this.postContext();
    return this.run(Methods.chat, params);
  }

  /**
   * Runs a code action's command (parley.explain, parley.fix, …) in a new
   * session shown in the view, cancellable with Stop. Returns the
   * command's result for the language client.
   */
  async runServerCommand(command: string, args: unknown[]): Promise<ChatResult | undefined> {
    void this.host.view.reveal(true);
    this.detachActive();
    this.session = undefined;
    this.record({ type: 'reset' });
    const arg = (args?.[0] ?? {}) as ChatContext;
    let info: ContextInfo | undefined;
    if (arg && typeof arg.uri === 'string') {
      const r = arg.range;
      const lines = r ? `:${r.start.line + 1}-${r.end.line + 1}` : '';
      info = { label: `${fileName(arg.uri)}${lines}`, uri: arg.uri, diagnostics: arg.diagnostics?.length || undefined };
    }
    this.record({ type: 'userMessage', text: ServerCommandTitles[command] ?? command, context: info });
    return this.run('workspace/executeCommand', { command, arguments: args });
  }

  private async run(method: string, params: unknown): Promise<ChatResult | undefined> {
    const client = this.host.client();
    if (!client) {
      this.record({ type: 'requestError', message: 'The parley server is not running.' });
      return undefined;
    }
    const run: Run = { cts: new vscode.CancellationTokenSource(), session: this.session };
    this.active = run;
    this.changedRunning();
    this.record({ type: 'turnStart' });
    const shown = () => this.active === run;
    try {
      const pending = client.sendRequest<ChatResult>(method, params, run.cts.token);
      run.finished = pending.catch(() => undefined);
      const result = await pending;
      if (shown()) {
        if (result && result.session) {
          this.session = result.session;
          run.session = result.session;
        }
        this.record({ type: 'turnEnd', result: result ?? undefined, cancelled: run.cts.token.isCancellationRequested });
      }
      return result ?? undefined;
    } catch (e) {
      if (shown()) {
        if (run.cts.token.isCancellationRequested) {
          this.record({ type: 'turnEnd', cancelled: true });
        } else {
          this.record({ type: 'requestError', message: errorMessage(e) });
        }
      } else {
        this.host.log?.(`chat turn in the background failed: ${errorMessage(e)}`);
      }
      return undefined;
    } finally {
      if (this.active === run) {
        this.active = undefined;
      }
      this.background.delete(run);
      run.cts.dispose();
      this.changedRunning();
      this.host.onTurnEnd?.();
      void this.refreshSessions(false);
    }
  }

  private changedRunning(): void {
    this.host.onRunning?.(this.runningCount);
  }

  /** Keeps the shown turn running without showing it any more. */
  private detachActive(): void {
    if (this.active) {
      this.background.add(this.active);
      this.active = undefined;
    }
  }

  /** Stop: cancels the shown turn ($/cancelRequest through the token). */
  stop(): void {
    this.active?.cts.cancel();
    this.approvals.cancelAll(true);
  }

  /** parley/event. */
  onEvent(e: ChatEvent): void {
    const run = this.active;
    if (run && run.session === undefined && e.session && ![...this.background].some((b) => b.session === e.session)) {
      // The first event of a new session names it.
      run.session = e.session;
      this.session = e.session;
    }
    if (e.kind === 'done' && run && run.session === e.session) {
      run.doneSeen = true;
    }
    // An MCP server's trouble concerns every session: it has none.
    if ((e.session === this.session && this.session !== undefined) || (e.kind === 'mcp' && !e.session)) {
      this.record({ type: 'event', event: e });
    }
  }

  // ---- compaction ----

  /** Asks for an optional focus, then compacts the shown session. */
  async compactAsking(): Promise<CompactResult | undefined> {
    if (!this.canCompact()) {
      return undefined;
    }
    const focus = await this.host.askCompactFocus();
    if (focus === undefined) {
      return undefined;
    }
    return this.compact(focus);
  }

  /**
   * parley/compact for the shown session. The compaction itself reaches
   * the view as a compaction event; the result only says whether there
   * was anything to compact.
   */
  async compact(focus = ''): Promise<CompactResult | undefined> {
    if (!this.canCompact()) {
      return undefined;
    }
    const client = this.host.client()!;
    const session = this.session!;
    const params: CompactParams = { session };
    if (focus.trim() !== '') {
      params.focus = focus.trim();
    }
    this.compacting = true;
    this.record({ type: 'compactStart' });
    let notice: string | undefined;
    let result: CompactResult | undefined;
    try {
      result = (await client.sendRequest<CompactResult>(Methods.compact, params)) ?? undefined;
      if (!result?.compaction) {
        notice = 'Nothing to compact yet: the conversation is too short.';
      }
    } catch (e) {
      notice = `Could not compact the conversation: ${errorMessage(e)}`;
    } finally {
      this.compacting = false;
    }
    if (this.session === session) {
      this.record({ type: 'compactEnd', notice });
    } else if (notice) {
      this.host.log?.(`compact session ${session}: ${notice}`);
    }
    return result;
  }

  /** Whether the shown session can be compacted now; says why not in the view. */
  private canCompact(): boolean {
    let why: string | undefined;
    if (!this.host.client()) {
      why = 'The parley server is not running.';
    } else if (!this.session) {
      why = 'Nothing to compact: this session has no conversation yet.';
    } else if (this.active) {
      why = 'A turn is running; compact the conversation when it ends.';
    } else if (this.compacting) {
      why = 'The conversation is already being compacted.';
    }
    if (why) {
      // Not requestError: that would end the running turn in the view.
      this.host.view.post({ type: 'notice', message: why });
    }
    return why === undefined;
  }

  // ---- sessions ----

  newSession(): void {
    this.detachActive();
    this.session = undefined;
    this.record({ type: 'reset' });
    this.host.view.post({ type: 'sessions', sessions: this.sessions, current: undefined });
    this.postContext();
    this.host.view.post({ type: 'focusInput' });
  }

  async refreshSessions(reportErrors = true): Promise<void> {
    const client = this.host.client();
    if (!client) {
      return;
    }
    try {
      const r = await client.sendRequest<{ sessions: SessionSummary[] }>(Methods.sessions, {});
      this.sessions = r?.sessions ?? [];
      this.host.view.post({ type: 'sessions', sessions: this.sessions, current: this.session });
    } catch (e) {
      if (reportErrors) {
        this.host.view.post({ type: 'requestError', message: `Could not list sessions: ${errorMessage(e)}` });
      }
    }
  }

  async openSession(id: string): Promise<void> {
    const client = this.host.client();
    if (!client || id === '') {
      return;
    }
    try {
      const h = await client.sendRequest<SessionHistory>(Methods.session, { session: id });
      this.detachActive();
      this.session = h.id;
      this.record({ type: 'reset' });
      this.record({ type: 'history', session: h });
      this.host.view.post({ type: 'sessions', sessions: this.sessions, current: this.session });
    } catch (e) {
      this.host.view.post({ type: 'requestError', message: `Could not open the session: ${errorMessage(e)}` });
    }
  }

  async deleteSession(id: string): Promise<void> {
    const client = this.host.client();
    if (!client || id === '') {
      return;
    }
    const title = this.sessions.find((s) => s.id === id)?.title || id;
    if (!(await this.host.confirm(`Delete the chat session "${title}"?`, 'Delete'))) {
      return;
    }
    try {
      await client.sendRequest(Methods.deleteSession, { session: id });
      if (id === this.session) {
        this.newSession();
      }
      await this.refreshSessions();
    } catch (e) {
      this.host.view.post({ type: 'requestError', message: `Could not delete the session: ${errorMessage(e)}` });
    }
  }

  // ---- "Ask about selection" ----

  /** Pins the editor's selection as the next message's context and focuses the input. */
  async askAboutSelection(ctx: EditorContext | undefined): Promise<void> {
    this.pinned = ctx;
    await this.host.view.reveal(false);
    this.postContext();
    this.host.view.post({ type: 'focusInput' });
  }

  // ---- approvals ----

  /**
   * Asks an approval in the view when it is visible; undefined otherwise.
   * Resolves to the chosen title, or null when the request was cancelled.
   * Questions still open when the view is hidden move to a modal dialog.
   */
  askInChat(message: string, actions: string[], token: CancelToken): Promise<string | null> | undefined {
    return this.approvals.ask(message, actions, token);
  }

  /** The view was hidden: open questions become modal dialogs. */
  viewHidden(): void {
    this.approvals.moveToModal((message, actions) => this.host.askModal(message, actions));
  }
}
