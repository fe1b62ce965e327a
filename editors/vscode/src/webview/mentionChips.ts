// The mentions event drawn in the transcript: one chip per mention of the
// user's message, "label · N tokens" (or the error, in red), in a row
// above the message's text.

import type { MentionReport } from '../protocol';
import { h } from './dom';
import { mentionChipText } from './mentionText';

export { mentionChipText } from './mentionText';

/** The row of chips for reports. */
export function renderMentionChips(reports: MentionReport[]): HTMLElement {
  return h(
    'div',
    { class: 'mentions', role: 'list', 'aria-label': 'Mentions' },
    ...reports.map((r) =>
      h('span', { class: `mention-chip${r.error ? ' mention-error' : ''}`, role: 'listitem', title: r.error ? `${r.text}: ${r.error}` : r.text, 'data-kind': r.kind }, mentionChipText(r)),
    ),
  );
}

/** What drawMentions drew into each turn element. */
const drawn = new WeakMap<HTMLElement, MentionReport[]>();

/**
 * Draws a turn's mentions into its element (the user block's top, or the
 * turn's for a turn without a user message); redraws only when they
 * changed since drawn.
 */
export function drawMentions(el: HTMLElement, reports: MentionReport[] | undefined): void {
  const before = drawn.get(el);
  if (reports === before || (!reports?.length && !before?.length)) {
    return;
  }
  drawn.set(el, reports ?? []);
  el.querySelector(':scope > .user > .mentions, :scope > .mentions')?.remove();
  if (!reports || reports.length === 0) {
    return;
  }
  const chips = renderMentionChips(reports);
  const user = el.querySelector(':scope > .user');
  if (user) {
    user.prepend(chips);
  } else {
    el.prepend(chips);
  }
}
