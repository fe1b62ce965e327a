// What the chat controller talks through: the language client, the view
// and the editor, as small interfaces the tests fake, and two helpers the
// controller's parts share.

import type * as vscode from 'vscode';
import type { ChatContext } from './protocol';
import type { ContextInfo, ToView } from './webview/messages';

export interface ChatClient {
  sendRequest<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R>;
}

export interface ChatViewPort {
  /** Posts to the page; dropped when there is no page. */
  post(m: ToView): void;
  readonly visible: boolean;
  /** Shows the view (and focuses it unless preserveFocus). */
  reveal(preserveFocus?: boolean): void | Thenable<void>;
}

export interface EditorContext {
  context: ChatContext;
  info: ContextInfo;
}

export interface ChatHost {
  /** The running language client, or undefined while it is not running. */
  client(): ChatClient | undefined;
  view: ChatViewPort;
  /** The active editor's file and selection. */
  editorContext(): EditorContext | undefined;
  /** Opens a file URI in an editor. */
  openFile(uri: string): void;
  openLink(href: string): void;
  /** A modal yes/no; resolves true when confirmed. */
  confirm(message: string, action: string): Thenable<boolean>;
  /** A modal approval question (when the view is hidden). */
  askModal(message: string, actions: string[]): Thenable<string | undefined>;
  restartServer(): void;
  /**
   * Asks what a compaction's summary should keep above all; resolves to
   * the focus ('' for none) or undefined when the user cancelled.
   */
  askCompactFocus(): Thenable<string | undefined>;
  /** Called whenever the number of turns in flight changes. */
  onRunning?(count: number): void;
  /** Called when a turn ends (to refresh the index status, say). */
  onTurnEnd?(): void;
  log?(msg: string): void;
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) {
    return e.message;
  }
  if (e && typeof e === 'object' && 'message' in e) {
    return String((e as { message: unknown }).message);
  }
  return String(e);
}

/** The last two segments of a file URI, as the view labels a file. */
export function fileName(uri: string): string {
  const p = uri.replace(/^file:\/\//, '');
  const segs = decodeURIComponent(p).split('/').filter((x) => x !== '');
  return segs.slice(-2).join('/');
}
