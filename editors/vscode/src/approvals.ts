// window/showMessageRequest handling. parley asks before risky tool calls
// (shell commands, fetches, commits; edits when the client cannot confirm
// them itself) with three actions: Allow once, Allow for this session,
// Deny. Dismissing is a denial. The question is shown in the chat view when
// it is visible (it is where the user is looking), else as a modal dialog
// so it cannot get lost among notifications. Other requests keep VS Code's
// usual message with buttons.

export const APPROVE_ONCE = 'Allow once';
export const APPROVE_SESSION = 'Allow for this session';
export const DENY = 'Deny';
export const APPROVAL_ACTIONS = [APPROVE_ONCE, APPROVE_SESSION, DENY] as const;

export interface MessageActionItem {
  title: string;
}

export interface ShowMessageRequestParams {
  type: number; // 1 error, 2 warning, 3 info, 4 log
  message: string;
  actions?: MessageActionItem[];
}

export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** How an approval can be asked; the extension binds these to VS Code. */
export interface ApprovalUI {
  /**
   * Asks in the chat view. Returns undefined when the view is not visible
   * (then the modal is used); else resolves to the chosen title, or null
   * when the question was withdrawn.
   */
  askInChat(message: string, actions: string[], token: CancelToken): Promise<string | null> | undefined;
  /** A modal warning; resolves to the chosen title or undefined (dismissed). */
  askModal(message: string, detail: string, actions: string[]): Promise<string | undefined>;
  /** VS Code's ordinary message with buttons, for requests that are not approvals. */
  showMessage(type: number, message: string, actions: string[]): Promise<string | undefined>;
}

/** An approval question from parley: a warning with exactly its three actions. */
export function isApproval(p: ShowMessageRequestParams): boolean {
  const titles = (p.actions ?? []).map((a) => a.title);
  return (
    p.type === 2 &&
    titles.length === APPROVAL_ACTIONS.length &&
    APPROVAL_ACTIONS.every((t) => titles.includes(t))
  );
}

/** Splits "parley wants to run: go test ./..." into a title and the command. */
export function describeApproval(message: string): { title: string; detail: string } {
  const m = /^parley wants to (run|fetch|change|use)[: ]\s*(.*)$/s.exec(message);
  if (!m) {
    return { title: message, detail: '' };
  }
  const verb = m[1];
  const what = m[2];
  switch (verb) {
    case 'run':
      return { title: 'parley wants to run a command', detail: what };
    case 'fetch':
      return { title: 'parley wants to fetch a URL', detail: what };
    case 'change':
      return { title: 'parley wants to change files', detail: what };
    default:
      return { title: message, detail: '' };
  }
}

/**
 * Answers one window/showMessageRequest. Returns the chosen action item,
 * or null (dismissed, withdrawn or cancelled): for an approval that is a
 * denial.
 */
export async function handleShowMessageRequest(
  p: ShowMessageRequestParams,
  token: CancelToken,
  ui: ApprovalUI,
): Promise<MessageActionItem | null> {
  const actions = p.actions ?? [];
  const pick = (title: string | null | undefined): MessageActionItem | null =>
    (title && actions.find((a) => a.title === title)) || null;
  if (!isApproval(p)) {
    return pick(await ui.showMessage(p.type, p.message, actions.map((a) => a.title)));
  }
  if (token.isCancellationRequested) {
    return null;
  }
  const titles = actions.map((a) => a.title);
  const inChat = ui.askInChat(p.message, titles, token);
  if (inChat !== undefined) {
    return pick(await inChat);
  }
  const d = describeApproval(p.message);
  const detail = [d.detail, 'Closing this dialog denies the request.'].filter((x) => x !== '').join('\n\n');
  // A modal cannot be taken down when the request is cancelled; the answer
  // then goes nowhere, which is harmless.
  return pick(await ui.askModal(d.title, detail, titles.filter((t) => t !== DENY).concat(DENY)));
}
