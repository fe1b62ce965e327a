// What the memory view shows of a memory, with no vscode dependency so the
// unit tests check the wording directly: the tree item's label,
// description and tooltip, the Markdown of "Show", and the stats line.

import { type Memory, type MemoryStoreStats } from './protocol';

/** The codicon of each memory type (stale memories get a warning). */
const TYPE_ICONS: Record<string, string> = {
  fact: 'info',
  preference: 'account',
  decision: 'law',
  code_pattern: 'symbol-method',
  error_solution: 'bug',
  project_context: 'project',
  instruction: 'checklist',
  note: 'note',
};

export interface MemoryItemView {
  label: string;
  description: string;
  tooltip: string;
  icon: string;
  /** contextValue: menus offer "review" on stale memories. */
  context: 'memory' | 'memory.stale';
}

/** Newlines folded, clipped to n characters. */
export function clip(s: string, n: number): string {
  const one = s.split(/\s+/).filter((x) => x).join(' ');
  return one.length <= n ? one : one.slice(0, n - 1) + '…';
}

/** The tree item of a memory: its text, then ref, type, importance and markers. */
export function memoryItem(m: Memory): MemoryItemView {
  const stale = (m.stale?.length ?? 0) > 0;
  const parts = [`[${m.ref}]`, m.type, `★${m.importance}`];
  if (m.scope === 'user') {
    parts.push('user');
  }
  if (m.tags?.length) {
    parts.push(m.tags.map((t) => `#${t}`).join(' '));
  }
  if (stale) {
    parts.push('STALE');
  }
  const tip = [m.content, '', `${m.type}, importance ${m.importance}, ${m.scope} memory ${m.ref}`];
  if (m.tags?.length) {
    tip.push(`tags: ${m.tags.join(', ')}`);
  }
  for (const a of m.anchors ?? []) {
    tip.push(`anchor: ${a.path}${a.symbol ? '#' + a.symbol : ''}`);
  }
  if (stale) {
    tip.push(`stale: ${m.stale!.join('; ')} since it was written`);
  }
  return {
    label: clip(m.content, 80),
    description: parts.join(' · '),
    tooltip: tip.join('\n'),
    icon: stale ? 'warning' : (TYPE_ICONS[m.type] ?? 'circle-small'),
    context: stale ? 'memory.stale' : 'memory',
  };
}

function day(t?: string): string {
  return t ? t.slice(0, 10) : '';
}

/** A memory in full, as Markdown (the "Show" document). */
export function memoryDetail(m: Memory): string {
  const out = [`# Memory ${m.ref}`, '', m.content, '', `- type: ${m.type}`, `- importance: ${m.importance}`, `- scope: ${m.scope}`];
  if (m.tags?.length) {
    out.push(`- tags: ${m.tags.join(', ')}`);
  }
  for (const a of m.anchors ?? []) {
    out.push(`- anchor: \`${a.path}${a.symbol ? '#' + a.symbol : ''}\``);
  }
  const dates = [`written ${day(m.created)}`];
  if (m.updated) {
    dates.push(`edited ${day(m.updated)}`);
  }
  if (m.used) {
    dates.push(`last recalled ${day(m.used)}`);
  }
  out.push(`- ${dates.join(', ')}`);
  if (m.stale?.length) {
    out.push('', `**Stale:** ${m.stale.join('; ')} since it was written. Edit it to confirm it, or forget it.`);
  }
  return out.join('\n') + '\n';
}

/** One line per store, as /memory stats says it. */
export function statsLines(stores: MemoryStoreStats[]): string[] {
  return stores.map((s) => {
    if (!s.available) {
      return `${s.scope} memories: unavailable`;
    }
    const byType = Object.entries(s.types ?? {})
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    return `${s.scope} memories: ${s.count}${byType ? ` (${byType})` : ''}${s.stale ? `, ${s.stale} stale` : ''}`;
  });
}

/** Tags typed as "a, b c" (commas or spaces). */
export function parseTags(s: string): string[] {
  return [...new Set(s.split(/[\s,]+/).filter((t) => t))];
}

/** An importance typed by the user: undefined when it is not 1-10. */
export function parseImportance(s: string): number | undefined {
  const n = Number(s.trim());
  return Number.isInteger(n) && n >= 1 && n <= 10 ? n : undefined;
}
