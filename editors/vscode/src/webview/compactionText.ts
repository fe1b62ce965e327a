// How the chat view words a compaction (pure; used by the page and tested).

import type { Compaction } from '../protocol';
import type { CompactionItem } from './state';

const fmt = (n: number) => n.toLocaleString('en-US');

/** The line a compaction shows: "Compacted 172,000 → 41,000 tokens". */
export function compactionTitle(it: CompactionItem): string {
  const c = it.compaction;
  if (!c) {
    return it.summary !== undefined ? 'Earlier conversation summarised' : (it.text ?? 'Compacted the conversation');
  }
  return `Compacted ${fmt(c.tokensBefore)} → ${fmt(c.tokensAfter)} tokens`;
}

/** What a compaction did: "12 tool results masked, 40 messages summarised". */
export function compactionDetail(c: Compaction | undefined): string {
  if (!c) {
    return '';
  }
  const did: string[] = [];
  if (c.masked > 0) {
    did.push(`${fmt(c.masked)} tool result${c.masked === 1 ? '' : 's'} masked`);
  }
  if (c.summarised > 0) {
    did.push(`${fmt(c.summarised)} message${c.summarised === 1 ? '' : 's'} summarised`);
  }
  if ((c.clipped ?? 0) > 0) {
    did.push(`${fmt(c.clipped ?? 0)} tool result${c.clipped === 1 ? '' : 's'} cut`);
  }
  return did.join(', ');
}

export const COMPACTION_REASONS: Record<string, string> = {
  auto: 'the conversation was close to the context window',
  overflow: 'the model refused the conversation as too long; the answer is retried',
  manual: 'compacted on request',
};

/** Why a compaction ran, with the focus the user gave. */
export function compactionReason(c: Compaction | undefined): string {
  if (!c) {
    return '';
  }
  const why = COMPACTION_REASONS[c.reason] ?? c.reason;
  return c.focus ? `${why} (focus: ${c.focus})` : why;
}
