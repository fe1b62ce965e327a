// The text of @-mention chips, and the mentions of a stored user message:
// the server appends each expanded mention to the message as a block
// ("\n\n<file path=\"a.go\">…</file>", "\n\n<changes label=\"changes\">…</changes>"),
// so a reopened session's message is cut there and the blocks become
// chips. Pure: used by the reducer in Node and by the page.

import type { MentionReport } from '../protocol';

/** A chip's text: "label · 1,234 tokens", "label · error", or the label alone when the count is unknown. */
export function mentionChipText(r: MentionReport): string {
  const label = r.label || r.text;
  if (r.error) {
    return `${label} · ${r.error}`;
  }
  if (typeof r.tokens !== 'number' || r.tokens < 0) {
    return label;
  }
  return `${label} · ${r.tokens.toLocaleString('en-US')} token${r.tokens === 1 ? '' : 's'}`;
}

const BLOCK = /\n\n<(file|symbol|diagnostics|changes|selection|url) (?:path|label)="((?:[^"\\]|\\.)*)">\n[\s\S]*?\n<\/\1>/g;

/**
 * A stored user message without its expanded mention blocks, and one
 * report per block (tokens -1: the count is not stored). Text after the
 * blocks (a quoted context) is kept.
 */
export function splitMentions(text: string): { text: string; mentions?: MentionReport[] } {
  const mentions: MentionReport[] = [];
  const rest = text.replace(BLOCK, (_all, kind: string, label: string) => {
    const l = label.replace(/\\(.)/g, '$1');
    mentions.push({ kind, text: kind === 'file' ? `@${l}` : `@${kind}`, label: l, tokens: -1 });
    return '';
  });
  return mentions.length > 0 ? { text: rest, mentions } : { text };
}
