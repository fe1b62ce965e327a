// Approval questions asked in the chat view: each waits for the user's
// click, the request's cancellation, or the view being hidden (then it
// moves to a modal dialog). A page re-created meanwhile is shown the open
// questions again.

import type { CancelToken } from './approvals';
import type { ChatViewPort } from './chatHost';

interface PendingApproval {
  message: string;
  actions: string[];
  resolve(answer: string | null): void;
}

export class ChatApprovals {
  private seq = 0;
  private readonly pending = new Map<number, PendingApproval>();

  constructor(private readonly view: ChatViewPort) {}

  /**
   * Asks in the view when it is visible; undefined otherwise. Resolves to
   * the chosen title, or null when the request was cancelled.
   */
  ask(message: string, actions: string[], token: CancelToken): Promise<string | null> | undefined {
    if (!this.view.visible) {
      return undefined;
    }
    const id = ++this.seq;
    return new Promise<string | null>((resolve) => {
      const sub = token.onCancellationRequested(() => {
        if (this.pending.delete(id)) {
          this.view.post({ type: 'approvalDone', id });
          resolve(null);
        }
      });
      this.pending.set(id, {
        message,
        actions,
        resolve: (a) => {
          sub.dispose();
          resolve(a);
        },
      });
      this.view.post({ type: 'approval', id, message, actions });
    });
  }

  /** The user clicked an answer in the view. */
  answer(id: number, answer: string | null): void {
    const a = this.pending.get(id);
    if (a) {
      this.pending.delete(id);
      a.resolve(answer);
    }
  }

  /** Posts the open questions to a new page. */
  replay(): void {
    for (const [id, a] of this.pending) {
      this.view.post({ type: 'approval', id, message: a.message, actions: a.actions });
    }
  }

  /** Resolves every open question with null; tells the view when asked to. */
  cancelAll(tellView = false): void {
    for (const [id, a] of this.pending) {
      if (tellView) {
        this.view.post({ type: 'approvalDone', id });
      }
      a.resolve(null);
    }
    this.pending.clear();
  }

  /** The view was hidden: open questions become modal dialogs. */
  moveToModal(askModal: (message: string, actions: string[]) => Thenable<string | undefined>): void {
    for (const [id, a] of [...this.pending]) {
      this.pending.delete(id);
      this.view.post({ type: 'approvalDone', id });
      void Promise.resolve(askModal(a.message, a.actions)).then((ans) => a.resolve(ans ?? null));
    }
  }
}
