// Presentation helpers of the chat view: one-line summaries and labels of
// tool calls, usage, stop reasons and files. Pure: used by the page and
// unit-tested in Node.

import type { Usage } from '../protocol';
import type { ToolItem } from './state';

const SUMMARY_KEYS = ['command', 'path', 'file_path', 'pattern', 'query', 'url', 'name', 'symbol', 'description', 'message'];

/** One line about a tool call's arguments: the command, the path, the pattern… */
export function toolSummary(input: unknown, max = 80): string {
  if (input === undefined || input === null) {
    return '';
  }
  let s = '';
  if (typeof input === 'object' && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    const key = SUMMARY_KEYS.find((k) => typeof o[k] === 'string' && o[k] !== '');
    if (key) {
      s = String(o[key]);
    } else if (Object.keys(o).length === 0) {
      return '';
    } else {
      s = JSON.stringify(o);
    }
  } else {
    s = typeof input === 'string' ? input : JSON.stringify(input);
  }
  s = s.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function toolStatus(t: ToolItem): 'running' | 'ok' | 'error' {
  if (!t.result) {
    return 'running';
  }
  return t.result.isError ? 'error' : 'ok';
}

/** "5,230 in · 412 out · 1,024 cached" */
export function usageText(u: Usage | undefined): string {
  if (!u) {
    return '';
  }
  const f = (n: number) => n.toLocaleString('en-US');
  const parts = [`${f(u.inputTokens)} in`, `${f(u.outputTokens)} out`];
  if (u.cacheReadTokens) {
    parts.push(`${f(u.cacheReadTokens)} cached`);
  }
  return parts.join(' · ');
}

export const STOP_REASONS: Record<string, string> = {
  end_turn: '',
  max_tokens: 'Stopped: the answer hit the output token limit',
  max_iterations: 'Stopped: too many steps in one turn (max_iterations)',
  repeated_calls: 'Stopped: the agent kept repeating the same refused call',
  cancelled: 'Stopped',
  error: 'Failed',
  hook: 'Stopped by a hook',
};

export function stopReasonText(r: string | undefined): string {
  if (!r) {
    return '';
  }
  return STOP_REASONS[r] ?? r;
}

/** A file URI as a short label: the last two path segments. */
export function fileLabel(uri: string): string {
  let p = uri;
  try {
    if (uri.startsWith('file:')) {
      p = decodeURIComponent(new URL(uri).pathname);
    }
  } catch {
    // keep the URI as it is
  }
  const segs = p.split('/').filter((x) => x !== '');
  return segs.slice(-2).join('/') || uri;
}

export const OP_LABELS: Record<string, string> = {
  modify: 'Edited',
  create: 'Created',
  delete: 'Deleted',
  rename: 'Renamed',
};
