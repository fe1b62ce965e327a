// The extension's half of the chat's @-mentions: answers the page's
// mentionQuery with parley/mentionCandidates (the active editor's file as
// uri, for @diagnostics of it), cancelling the query before it ($/cancelRequest)
// so a slow answer never overtakes a newer one; and what a message's
// mentions change in the chat request.

import * as vscode from 'vscode';
import type { ChatHost } from './chatHost';
import { type ChatParams, type Mention, type MentionCandidatesParams, type MentionCandidatesResult, type MentionItem, Methods } from './protocol';

/** Candidates asked per query (the protocol's default). */
export const MENTION_LIMIT = 50;

export class MentionCandidates implements vscode.Disposable {
  private cts?: vscode.CancellationTokenSource;

  constructor(private readonly host: ChatHost) {}

  /** Asks the server for query's candidates and posts them to the page as answer id. */
  async query(id: number, query: string): Promise<void> {
    this.cts?.cancel();
    this.cts?.dispose();
    const cts = new vscode.CancellationTokenSource();
    this.cts = cts;
    const client = this.host.client();
    let items: MentionItem[] = [];
    let incomplete = false;
    if (client) {
      const params: MentionCandidatesParams = { query, limit: MENTION_LIMIT };
      const uri = this.host.editorContext()?.context.uri;
      if (uri) {
        params.uri = uri;
      }
      try {
        const r = await client.sendRequest<MentionCandidatesResult | null>(Methods.mentionCandidates, params, cts.token);
        items = Array.isArray(r?.items) ? r!.items : [];
        incomplete = r?.incomplete === true;
      } catch (e) {
        if (!cts.token.isCancellationRequested) {
          this.host.log?.(`parley/mentionCandidates failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }
    if (cts.token.isCancellationRequested) {
      return; // a newer query took over
    }
    this.host.view.post({ type: 'mentionCandidates', id, items, incomplete });
  }

  dispose(): void {
    this.cts?.cancel();
    this.cts?.dispose();
    this.cts = undefined;
  }
}

/** Whether a message's mentions need the editor's selection sent as the chat context. */
export function wantsSelection(mentions: Mention[] | undefined): boolean {
  return (mentions ?? []).some((m) => m.kind === 'selection');
}

/** Adds the mentions to a chat request (nothing for none). */
export function withMentions(params: ChatParams, mentions: Mention[] | undefined): ChatParams {
  if (mentions && mentions.length > 0) {
    params.mentions = mentions;
  }
  return params;
}
