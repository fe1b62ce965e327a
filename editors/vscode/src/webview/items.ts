// How the chat page draws one item of a turn (text, thinking, tool call,
// edit, compaction, hook, MCP line). renderItem gets the element drawn
// for the item before, if any, to keep a <details> open across redraws.

import { compactionDetail, compactionReason, compactionTitle } from './compactionText';
import { h, renderMarkdown } from './dom';
import { hookTitle, refusedHint } from './hookText';
import { mcpTitle } from './mcpText';
import type { CompactionItem, HookItem, Item, McpItem, ToolItem } from './state';
import { OP_LABELS, fileLabel, toolStatus, toolSummary } from './present';

export function renderItem(item: Item, old?: HTMLElement): HTMLElement {
  switch (item.kind) {
    case 'text': {
      const el = h('div', { class: 'md' });
      el.innerHTML = renderMarkdown(item.text);
      return el;
    }
    case 'thinking': {
      const body = h('div', { class: 'thinking-body' }, item.text);
      const el = h('details', { class: 'thinking' }, h('summary', {}, 'Thinking'), body);
      if (old?.hasAttribute('open')) {
        el.setAttribute('open', '');
      }
      return el;
    }
    case 'tool':
      return renderTool(item, old);
    case 'compaction':
      return renderCompaction(item, old);
    case 'hook':
      return renderHook(item);
    case 'mcp':
      return renderMcp(item);
    case 'edit': {
      const el = h('div', { class: 'edit' });
      for (const c of item.changes) {
        const row = h(
          'div',
          { class: `change change-${c.op}` },
          h('span', { class: 'op' }, OP_LABELS[c.op] ?? c.op),
          ' ',
          fileLink(c.uri),
        );
        if (c.newUri) {
          row.append(' → ', fileLink(c.newUri));
        }
        el.append(row);
      }
      return el;
    }
  }
}

/**
 * A compaction: one muted line (tokens before → after, what was done);
 * opening it shows why it ran and, for a loaded session, the summary that
 * replaced the earlier conversation.
 */
function renderCompaction(it: CompactionItem, old?: HTMLElement): HTMLElement {
  const detail = compactionDetail(it.compaction);
  const el = h(
    'details',
    { class: `compaction${it.compaction ? ` compaction-${it.compaction.reason}` : ''}` },
    h(
      'summary',
      { title: detail ? `${compactionTitle(it)} · ${detail}` : compactionTitle(it) },
      h('span', { class: 'compaction-icon', 'aria-hidden': 'true' }, '⟳'),
      h('span', { class: 'compaction-title' }, compactionTitle(it)),
      detail ? h('span', { class: 'compaction-detail' }, detail) : undefined,
    ),
  );
  const reason = compactionReason(it.compaction);
  if (reason) {
    el.append(h('div', { class: 'compaction-reason' }, `Why: ${reason}.`));
  }
  if (it.summary !== undefined) {
    const body = h('div', { class: 'md compaction-summary' });
    body.innerHTML = renderMarkdown(it.summary);
    el.append(body);
  }
  if (old?.hasAttribute('open')) {
    el.setAttribute('open', '');
  }
  return el;
}

/**
 * A hook run that did not end ok: one line (event, outcome, command) and
 * its message; a refused one says how to approve the workspace's hooks
 * (in place of the server's message, which says less).
 */
function renderHook(it: HookItem): HTMLElement {
  const r = it.hook;
  const el = h(
    'div',
    { class: `hook hook-${r.outcome}`, role: r.outcome === 'refused' ? 'note' : undefined, title: it.text ?? hookTitle(it) },
    h(
      'div',
      { class: 'hook-line' },
      h('span', { class: 'hook-icon', 'aria-hidden': 'true' }, '⚑'),
      h('span', { class: 'hook-title' }, hookTitle(it)),
      h('code', { class: 'hook-command' }, r.command),
    ),
  );
  if (r.outcome === 'refused') {
    el.append(h('div', { class: 'hook-hint' }, refusedHint(it)));
  } else if (r.message) {
    el.append(h('div', { class: 'hook-message' }, r.message));
  }
  return el;
}

/**
 * An MCP server's trouble (failed, crashed) or recovery (restarting,
 * restarted): one line naming the server and what happened, and the
 * reason below it.
 */
function renderMcp(it: McpItem): HTMLElement {
  const r = it.mcp;
  const trouble = r.state === 'failed' || r.state === 'crashed';
  const el = h(
    'div',
    { class: `mcp mcp-${r.state}`, role: trouble ? 'alert' : 'status', title: it.text ?? mcpTitle(r) },
    h('div', { class: 'mcp-line' }, h('span', { class: 'mcp-icon', 'aria-hidden': 'true' }, trouble ? '✗' : '↻'), h('span', { class: 'mcp-title' }, mcpTitle(r))),
  );
  if (r.error) {
    el.append(h('div', { class: 'mcp-message' }, r.error));
  }
  return el;
}

function fileLink(uri: string): HTMLElement {
  return h('a', { class: 'file', href: '#', 'data-uri': uri, title: uri }, fileLabel(uri));
}

const RESULT_LINES = 40;

function renderTool(t: ToolItem, old?: HTMLElement): HTMLElement {
  const status = toolStatus(t);
  const icon = status === 'running' ? '…' : status === 'error' ? '✗' : '✓';
  const summary = toolSummary(t.input);
  const el = h(
    'details',
    { class: `tool tool-${status}`, 'data-tool-call-id': t.id },
    h(
      'summary',
      {},
      h('span', { class: 'tool-status', 'aria-label': status }, icon),
      h('span', { class: 'tool-name' }, t.name),
      summary ? h('span', { class: 'tool-arg' }, summary) : undefined,
    ),
  );
  if (t.input !== undefined && t.input !== null && !(typeof t.input === 'object' && Object.keys(t.input as object).length === 0)) {
    el.append(h('pre', { class: 'tool-input' }, JSON.stringify(t.input, null, 2)));
  }
  if (t.result) {
    const lines = t.result.content.split('\n');
    const shown = lines.length > RESULT_LINES ? lines.slice(0, RESULT_LINES).join('\n') + `\n… ${lines.length - RESULT_LINES} more lines` : t.result.content;
    el.append(h('pre', { class: 'tool-result' }, shown || '(no output)'));
  }
  if (old?.hasAttribute('open')) {
    el.setAttribute('open', '');
  }
  return el;
}
