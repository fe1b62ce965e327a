// Messages between the extension (ChatController) and the chat webview.
// Both sides import these types; nothing here touches the DOM or vscode.

import type { ChatEvent, ChatImage, ChatResult, Mention, MentionItem, PromptCommand, SessionHistory, SessionSummary } from '../protocol';

/** The editor context a message is sent with, as the view shows it. */
export interface ContextInfo {
  /** e.g. "cart/cart.go:11-17" */
  label: string;
  uri: string;
  /** true when pinned by "Ask about selection" (sent with the next message only). */
  pinned?: boolean;
  diagnostics?: number;
}

/** Extension → webview. */
export type ToView =
  | { type: 'event'; event: ChatEvent }
  | { type: 'userMessage'; text: string; context?: ContextInfo; images?: string[] }
  | { type: 'turnStart' }
  | { type: 'turnEnd'; result?: ChatResult; cancelled?: boolean }
  | { type: 'requestError'; message: string }
  | { type: 'reset' }
  | { type: 'history'; session: SessionHistory }
  | { type: 'sessions'; sessions: SessionSummary[]; current?: string }
  | { type: 'context'; context?: ContextInfo; include: boolean }
  | { type: 'approval'; id: number; message: string; actions: string[] }
  | { type: 'approvalDone'; id: number }
  | { type: 'focusInput'; text?: string }
  | { type: 'showSessions' }
  | { type: 'notice'; message: string }
  | { type: 'compactStart' }
  | { type: 'compactEnd'; notice?: string }
  | { type: 'server'; state: 'starting' | 'running' | 'stopped'; message?: string }
  | { type: 'promptCommands'; commands: PromptCommand[] }
  /** The answer to the page's mentionQuery id. */
  | { type: 'mentionCandidates'; id: number; items: MentionItem[]; incomplete?: boolean }
  /** Image files the extension read for the page to attach (imageAttach.ts). */
  | { type: 'attachImages'; images: { name: string; mediaType: string; data: string; size: number }[] };

/** Webview → extension. */
export type FromView =
  | { type: 'ready' }
  /** mentions: the picked @-mentions whose text is still in the message. */
  | { type: 'send'; text: string; includeContext: boolean; mentions?: Mention[]; images?: ChatImage[] }
  | { type: 'stop' }
  | { type: 'newSession' }
  | { type: 'listSessions' }
  | { type: 'openSession'; id: string }
  | { type: 'deleteSession'; id: string }
  | { type: 'openFile'; uri: string }
  | { type: 'openLink'; href: string }
  | { type: 'restartServer' }
  | { type: 'approve'; id: number; answer: string | null }
  | { type: 'includeContext'; include: boolean }
  | { type: 'unpinContext' }
  | { type: 'compact' }
  | { type: 'listPromptCommands' }
  /** Asks parley/mentionCandidates for what follows an "@"; answered by mentionCandidates with the same id. */
  | { type: 'mentionQuery'; id: number; query: string }
  /** Workspace files dropped on the input, for the extension to read and answer with attachImages. */
  | { type: 'attachUris'; uris: string[] };
