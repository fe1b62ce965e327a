// Next-edit proposals: after the user edits a document the language client
// serves and pauses, parley/nextEdit (docs/protocol.md) proposes the edit
// that most likely comes next (the other uses of a renamed parameter, a
// missing import). The proposal is drawn as an inline diff in the editor;
// Tab applies all of it as one WorkspaceEdit (one undo step per file) and
// only while every version it names is still the document's, Esc, any
// further edit of its documents or moving far away dismisses it. A
// proposal whose edits are all in other files first offers to jump there.
//
// The controller knows VS Code only through NextEditHost (the editor, the
// decorations, the context key), so that it is tested without a workbench;
// nextEditCommands.ts wires it to VS Code.
//
// Safe for use from one thread (the extension host's).

import * as vscode from 'vscode';
import { QUIET_ERRORS } from './completion';
import { type LspCommand, type LspPosition, type LspRange, Methods, type NextEditEditWire, type NextEditParams, type NextEditResult } from './protocol';

const METHOD_NOT_FOUND = -32601;

/** How far (in lines) the cursor may move away from a proposal before it is dismissed. */
export const NEAR_LINES = 10;
export const DEFAULT_DEBOUNCE_MS = 400;

/** What the controller needs of the language client (LanguageClient has all of it). */
export interface NextEditClient {
  sendRequest<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R>;
  readonly code2ProtocolConverter: {
    asUri(uri: vscode.Uri): string;
    asPosition(p: vscode.Position): LspPosition;
  };
  readonly protocol2CodeConverter: {
    asUri(uri: string): vscode.Uri;
    asRange(r: LspRange): vscode.Range;
  };
}

/** The parts of a document and an editor used here. */
export type NextEditDocument = Pick<vscode.TextDocument, 'uri' | 'version' | 'isDirty'>;
export interface NextEditEditor {
  readonly document: NextEditDocument;
  readonly selection: { readonly active: vscode.Position };
}

/** One edit of a proposal, converted. */
export interface ProposedEdit {
  uri: vscode.Uri;
  /** uri.toString(): how documents are matched. */
  key: string;
  /** The version it was computed against; null: the file was not open. */
  version: number | null;
  range: vscode.Range;
  newText: string;
}

export interface Proposal {
  id?: string | number;
  why: string;
  edits: ProposedEdit[];
  command?: LspCommand;
  /** The document it was asked for, and the cursor's line then. */
  originKey: string;
  originLine: number;
}

/** What to draw in one editor. */
export interface RenderPlan {
  /** accept: Tab applies the proposal; jump: Tab opens the file of its first edit. */
  kind: 'accept' | 'jump';
  /** The proposal's edits in this document: the text struck through, the new text after it. */
  edits: { range: vscode.Range; newText: string }[];
  /** The line the hint goes at the end of, and its text. */
  hint: { line: number; text: string };
  /** What the proposal does (the server's why). */
  why: string;
}

/** The editor side: the decorations and the parley.nextEditVisible context key. */
export interface NextEditView {
  /** Draws plan in editor, taking away what was drawn before (anywhere); undefined draws nothing. */
  show(editor: NextEditEditor | undefined, plan: RenderPlan | undefined): void;
  setVisible(visible: boolean): void;
}

export interface NextEditHost {
  /** The running client, or undefined. */
  client(): NextEditClient | undefined;
  /** parley.nextEdit.enabled and the completion switch (not off, not snoozed). */
  active(): boolean;
  debounceMs(): number;
  /** A document the language client serves. */
  serves(doc: NextEditDocument): boolean;
  /** Ghost text of inline completion may be showing in the document (protocol URI) at this version. */
  completionShowing(uri: string, version: number): boolean;
  activeEditor(): NextEditEditor | undefined;
  openDocuments(): readonly NextEditDocument[];
  applyEdit(edit: vscode.WorkspaceEdit): Thenable<boolean>;
  /** Opens uri in an editor with the cursor at `at`. */
  open(uri: vscode.Uri, at: vscode.Position): Thenable<unknown>;
  view: NextEditView;
  log(message: string): void;
}

/** VS Code's TextDocumentChangeReason (1.90 has it; the unit tests' mock too). */
const UNDO = 1;
const REDO = 2;

export interface DocumentChange {
  document: NextEditDocument;
  contentChanges: readonly unknown[];
  reason?: number;
}

export type AcceptOutcome = 'accepted' | 'jumped' | 'stale' | 'failed' | 'none';

/** The last segment of a URI's path. */
export function baseName(uri: vscode.Uri): string {
  const p = uri.path;
  return p.slice(p.lastIndexOf('/') + 1) || p;
}

/** The new text as one line of an `after` decoration. */
export function shownText(s: string, max = 80): string {
  const one = s.replace(/\r?\n/g, ' ⏎ ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * What to draw for p in the document key: its edits there and a hint at
 * the first, or — in the document it was asked for, when all its edits
 * are elsewhere — a hint to jump; undefined for any other document.
 */
export function planFor(p: Proposal, key: string): RenderPlan | undefined {
  const here = p.edits.filter((e) => e.key === key).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  const elsewhere = new Set(p.edits.filter((e) => e.key !== key).map((e) => e.key));
  if (here.length > 0) {
    const more = elsewhere.size > 0 ? ` (and ${p.edits.length - here.length} in ${elsewhere.size === 1 ? 'another file' : `${elsewhere.size} other files`})` : '';
    return {
      kind: 'accept',
      edits: here.map((e) => ({ range: e.range, newText: e.newText })),
      hint: { line: here[0].range.start.line, text: `${p.why}${more} — Tab to accept · Esc to dismiss` },
      why: p.why,
    };
  }
  if (key === p.originKey && p.edits.length > 0) {
    return { kind: 'jump', edits: [], hint: { line: p.originLine, text: `${p.why} — Tab to jump to ${baseName(p.edits[0].uri)} · Esc to dismiss` }, why: p.why };
  }
  return undefined;
}

/**
 * The first edit whose document moved on since the proposal: one open at
 * another version than the edit names (or closed since), or — for a file
 * that was not open — opened and changed since.
 */
export function staleEdit(edits: readonly ProposedEdit[], docs: readonly NextEditDocument[]): ProposedEdit | undefined {
  const open = new Map(docs.map((d) => [d.uri.toString(), d]));
  return edits.find((e) => {
    const d = open.get(e.key);
    return e.version === null ? !!d?.isDirty : d?.version !== e.version;
  });
}

function isPosition(p: unknown): p is LspPosition {
  const q = p as LspPosition | undefined;
  return !!q && Number.isInteger(q.line) && Number.isInteger(q.character) && q.line >= 0 && q.character >= 0;
}

function validWire(w: NextEditEditWire): boolean {
  return (
    !!w &&
    typeof w.textDocument?.uri === 'string' &&
    (w.textDocument.version === null || w.textDocument.version === undefined || Number.isInteger(w.textDocument.version)) &&
    isPosition(w.range?.start) &&
    isPosition(w.range?.end) &&
    typeof w.newText === 'string'
  );
}

/**
 * Asks for, shows, applies and dismisses next-edit proposals. The
 * handlers (documentChanged, selectionChanged, activeEditorChanged) are
 * VS Code's events; acceptOrJump and dismiss are Tab and Esc.
 */
export class NextEditController {
  private timer?: ReturnType<typeof setTimeout>;
  private pending?: vscode.CancellationTokenSource;
  private proposal?: Proposal;
  private shownIn?: NextEditEditor;
  private shownPlan?: RenderPlan;
  /** While our own applyEdit runs, and the versions it produced: changes that are not the user's. */
  private applying = 0;
  private readonly ownVersions = new Map<string, number>();
  private readonly unsupported = new WeakSet<object>();

  constructor(private readonly host: NextEditHost) {}

  /** The proposal shown, if any. */
  current(): Proposal | undefined {
    return this.proposal;
  }

  /** A document changed (workspace.onDidChangeTextDocument). */
  documentChanged(e: DocumentChange): void {
    if (e.contentChanges.length === 0) {
      return; // the dirty state only
    }
    const key = e.document.uri.toString();
    const own = this.ownVersions.get(key);
    if (this.applying > 0 || (own !== undefined && e.document.version <= own)) {
      return; // our own edit
    }
    this.ownVersions.delete(key);
    const p = this.proposal;
    if (p && (p.originKey === key || p.edits.some((x) => x.key === key))) {
      this.dismiss();
    }
    this.cancel();
    if (e.reason === UNDO || e.reason === REDO) {
      return;
    }
    if (!this.host.serves(e.document) || this.host.activeEditor()?.document !== e.document || !this.host.active()) {
      return;
    }
    const doc = e.document;
    this.timer = setTimeout(() => void this.ask(doc), Math.max(0, this.host.debounceMs()));
  }

  /** The cursor moved (window.onDidChangeTextEditorSelection): far from the proposal dismisses it. */
  selectionChanged(editor: NextEditEditor): void {
    const plan = this.shownPlan;
    if (!this.proposal || !plan || editor !== this.shownIn) {
      return;
    }
    const lines = [plan.hint.line, ...plan.edits.flatMap((e) => [e.range.start.line, e.range.end.line])];
    const line = editor.selection.active.line;
    if (line < Math.min(...lines) - NEAR_LINES || line > Math.max(...lines) + NEAR_LINES) {
      this.dismiss();
    }
  }

  /** Another editor is active (window.onDidChangeActiveTextEditor): the proposal follows, or goes. */
  activeEditorChanged(): void {
    if (this.proposal) {
      this.show();
    }
  }

  /** The setting or the switch changed: off dismisses and cancels. */
  refresh(): void {
    if (!this.host.active()) {
      this.cancel();
      this.dismiss();
    }
  }

  /** Asks for a proposal for doc at the cursor of the active editor, and shows it. */
  async ask(doc: NextEditDocument): Promise<void> {
    this.timer = undefined;
    const editor = this.host.activeEditor();
    if (!editor || editor.document !== doc || !this.host.active()) {
      return;
    }
    const client = this.host.client();
    if (!client || this.unsupported.has(client)) {
      return;
    }
    const c2p = client.code2ProtocolConverter;
    const uri = c2p.asUri(doc.uri);
    const version = doc.version;
    if (this.host.completionShowing(uri, version)) {
      return;
    }
    const position = editor.selection.active;
    const params: NextEditParams = { textDocument: { uri, version }, position: c2p.asPosition(position) };
    this.cancel();
    const source = new vscode.CancellationTokenSource();
    this.pending = source;
    let result: NextEditResult | null;
    let cancelled = false;
    try {
      result = await client.sendRequest<NextEditResult | null>(Methods.nextEdit, params, source.token);
    } catch (e) {
      const code = (e as { code?: unknown })?.code;
      if (code === METHOD_NOT_FOUND) {
        this.unsupported.add(client);
        this.host.log('parley: this server does not answer parley/nextEdit; next-edit proposals are off until it restarts.');
      } else if (!QUIET_ERRORS.has(code as number) && !source.token.isCancellationRequested) {
        this.host.log(`parley/nextEdit: ${e instanceof Error ? e.message : String(e)}`);
      }
      return;
    } finally {
      if (this.pending === source) {
        this.pending = undefined;
      }
      cancelled = source.token.isCancellationRequested;
      source.dispose();
    }
    if (cancelled || doc.version !== version || !this.host.active() || !result || !Array.isArray(result.edits) || result.edits.length === 0) {
      return;
    }
    if (this.host.activeEditor()?.document !== doc || this.host.completionShowing(uri, version)) {
      return;
    }
    const p = this.toProposal(client, result, doc.uri.toString(), position.line);
    if (p) {
      this.proposal = p;
      this.show();
    }
  }

  private toProposal(client: NextEditClient, r: NextEditResult, originKey: string, originLine: number): Proposal | undefined {
    const p2c = client.protocol2CodeConverter;
    const edits: ProposedEdit[] = [];
    for (const w of r.edits) {
      if (!validWire(w)) {
        this.host.log(`parley/nextEdit: an edit the client cannot read: ${JSON.stringify(w)}`);
        return undefined;
      }
      const uri = p2c.asUri(w.textDocument.uri);
      edits.push({ uri, key: uri.toString(), version: w.textDocument.version ?? null, range: p2c.asRange(w.range), newText: w.newText });
    }
    return { id: r.id, why: r.why || 'next edit', edits, command: r.command, originKey, originLine };
  }

  /** Draws the proposal in the active editor, or dismisses it when that editor has nothing of it. */
  private show(): void {
    const p = this.proposal;
    const editor = this.host.activeEditor();
    const plan = p && editor ? planFor(p, editor.document.uri.toString()) : undefined;
    if (p && !plan) {
      this.dismiss();
      return;
    }
    this.shownIn = plan ? editor : undefined;
    this.shownPlan = plan;
    this.host.view.show(this.shownIn, plan);
    this.host.view.setVisible(!!plan);
  }

  /**
   * Tab: applies the proposal shown in the active editor, or, when its
   * edits are all in other files, opens the first of them (where it is
   * then shown). 'none': nothing is shown here (the caller types a Tab).
   */
  async acceptOrJump(): Promise<AcceptOutcome> {
    const p = this.proposal;
    const editor = this.host.activeEditor();
    const plan = p && editor ? planFor(p, editor.document.uri.toString()) : undefined;
    if (!p || !editor || !plan) {
      return 'none';
    }
    if (plan.kind === 'accept') {
      return this.accept();
    }
    const here = editor.document.uri.toString();
    const first = p.edits.find((e) => e.key !== here) ?? p.edits[0];
    try {
      await this.host.open(first.uri, first.range.start);
    } catch (e) {
      this.host.log(`parley: could not open ${first.uri.toString()}: ${e instanceof Error ? e.message : String(e)}`);
      this.dismiss();
      return 'failed';
    }
    if (this.proposal === p) {
      this.show();
    }
    return 'jumped';
  }

  /**
   * Applies the proposal as one WorkspaceEdit, once every version it
   * names is checked (a stale proposal is dismissed, never applied), then
   * runs its command on the server.
   */
  async accept(): Promise<AcceptOutcome> {
    const p = this.proposal;
    if (!p) {
      return 'none';
    }
    this.dismiss();
    const stale = staleEdit(p.edits, this.host.openDocuments());
    if (stale) {
      this.host.log(`parley: next-edit proposal ${p.id ?? ''} not applied: ${baseName(stale.uri)} changed since it was proposed.`);
      return 'stale';
    }
    const edit = new vscode.WorkspaceEdit();
    for (const e of p.edits) {
      edit.replace(e.uri, e.range, e.newText);
    }
    const keys = new Set(p.edits.map((e) => e.key));
    let ok = false;
    this.applying++;
    try {
      ok = await this.host.applyEdit(edit);
    } catch (e) {
      this.host.log(`parley: next-edit proposal ${p.id ?? ''}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.applying--;
      for (const d of this.host.openDocuments()) {
        const k = d.uri.toString();
        if (keys.has(k)) {
          this.ownVersions.set(k, d.version);
        }
      }
    }
    if (!ok) {
      this.host.log(`parley: next-edit proposal ${p.id ?? ''} was not applied (the editor refused the edit).`);
      return 'failed';
    }
    await this.forward(p.command);
    return 'accepted';
  }

  /** The server's command (parley.nextEdit.accepted), as workspace/executeCommand. */
  private async forward(command: LspCommand | undefined): Promise<void> {
    const client = this.host.client();
    if (!command || !client) {
      return;
    }
    try {
      await client.sendRequest('workspace/executeCommand', { command: command.command, arguments: command.arguments ?? [] });
    } catch (e) {
      this.host.log(`${command.command}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Esc: takes the proposal away. Returns whether there was one. */
  dismiss(): boolean {
    const had = this.proposal !== undefined || this.shownPlan !== undefined;
    this.proposal = undefined;
    this.shownIn = undefined;
    this.shownPlan = undefined;
    if (had) {
      this.host.view.show(undefined, undefined);
      this.host.view.setVisible(false);
    }
    return had;
  }

  /** Cancels the request waiting to be sent or answered. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending?.cancel();
    this.pending = undefined;
  }

  dispose(): void {
    this.cancel();
    this.dismiss();
  }
}
