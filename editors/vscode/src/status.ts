// The status bar's model: $/progress (tokens parley/index/N,
// parley/chat/N and parley/compact/N), parley/indexStatus and the server's state turned into
// text and tooltip. Pure, so it is unit-tested without VS Code.

import type { IndexStatus } from './protocol';

export interface ProgressBegin {
  kind: 'begin';
  title: string;
  message?: string;
  percentage?: number;
  cancellable?: boolean;
}
export interface ProgressReport {
  kind: 'report';
  message?: string;
  percentage?: number;
}
export interface ProgressEnd {
  kind: 'end';
  message?: string;
}
export type ProgressValue = ProgressBegin | ProgressReport | ProgressEnd;

export type TokenKind = 'index' | 'chat' | 'compact' | 'other';

/** parley names its tokens "parley/<kind>/<n>". */
export function tokenKind(token: string | number): TokenKind {
  const m = /^parley\/(index|chat|compact)\//.exec(String(token));
  return m ? (m[1] as TokenKind) : 'other';
}

interface Active {
  kind: TokenKind;
  title: string;
  message?: string;
  percentage?: number;
}

export type ServerState = 'starting' | 'running' | 'stopped';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Something is in progress (the item shows a spinner). */
  busy: boolean;
  /** The item should stand out (error or stopped server). */
  warning: boolean;
}

/** Compact counts: 950, 11.5k, 370k, 1.2M. */
export function compact(n: number): string {
  if (n < 1000) {
    return String(n);
  }
  if (n < 1_000_000) {
    const k = n / 1000;
    return `${k < 100 ? trim1(k) : Math.round(k)}k`;
  }
  const m = n / 1_000_000;
  return `${m < 100 ? trim1(m) : Math.round(m)}M`;
}

function trim1(x: number): string {
  const s = (Math.floor(x * 10) / 10).toFixed(1);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

function thousands(n: number): string {
  return n.toLocaleString('en-US');
}

export class StatusModel {
  private readonly active = new Map<string, Active>();
  private status?: IndexStatus;
  private server: ServerState = 'starting';
  private serverMessage?: string;
  private chats = 0;

  /** Applies one $/progress value. Returns the token's kind. */
  progress(token: string | number, value: ProgressValue): TokenKind {
    const key = String(token);
    const kind = tokenKind(token);
    switch (value.kind) {
      case 'begin':
        this.active.set(key, { kind, title: value.title, message: value.message, percentage: value.percentage });
        break;
      case 'report': {
        const a = this.active.get(key);
        if (a) {
          if (value.message !== undefined) {
            a.message = value.message;
          }
          if (value.percentage !== undefined) {
            a.percentage = value.percentage;
          }
        }
        break;
      }
      case 'end':
        this.active.delete(key);
        break;
    }
    return kind;
  }

  /** Forgets every progress item (the server stopped). */
  clearProgress(): void {
    this.active.clear();
  }

  setIndexStatus(s: IndexStatus): void {
    this.status = s;
  }

  setServer(state: ServerState, message?: string): void {
    this.server = state;
    this.serverMessage = message;
    if (state !== 'running') {
      this.active.clear();
      this.chats = 0;
    }
  }

  /** The chat view's requests in flight (one per running turn). */
  setChatsRunning(n: number): void {
    this.chats = Math.max(0, n);
  }

  indexing(): boolean {
    for (const a of this.active.values()) {
      if (a.kind === 'index') {
        return true;
      }
    }
    return false;
  }

  view(): StatusView {
    if (this.server === 'stopped') {
      return {
        text: '$(error) parley',
        tooltip: `parley: the language server is not running${this.serverMessage ? `: ${this.serverMessage}` : ''}. Click for details.`,
        busy: false,
        warning: true,
      };
    }
    if (this.server === 'starting') {
      return { text: '$(loading~spin) parley', tooltip: 'parley: starting the language server', busy: true, warning: false };
    }
    const parts: string[] = [];
    const tips: string[] = [];
    let busy = false;
    let warning = false;

    const index = [...this.active.values()].filter((a) => a.kind === 'index');
    if (index.length > 0) {
      busy = true;
      const a = index[0];
      let t = '$(sync~spin) parley';
      if (a.percentage !== undefined) {
        t += ` ${a.percentage}%`;
      }
      if (a.message) {
        t += ` ${a.message}`;
      }
      parts.push(t);
      tips.push(`${a.title}${a.message ? `: ${a.message}` : ''}${a.percentage !== undefined ? ` (${a.percentage}%)` : ''}`);
    } else if (this.status) {
      const s = this.status;
      if (s.lastError) {
        warning = true;
        parts.push(`$(warning) parley ${compact(s.files)} files`);
      } else {
        parts.push(`$(database) parley ${compact(s.files)} files · ${compact(s.symbols)} symbols`);
      }
    } else {
      parts.push('$(database) parley');
    }

    if (this.status) {
      const s = this.status;
      tips.push(`Index: ${thousands(s.files)} files, ${thousands(s.symbols)} symbols${s.indexing ? ' (indexing)' : ''}`);
      for (const f of s.folders ?? []) {
        let line = `${f.root}: ${thousands(f.files)} files, ${thousands(f.symbols)} symbols`;
        if (f.indexing && f.total > 0) {
          line += `, indexing ${f.done}/${f.total}`;
        }
        if (f.private) {
          line += ' (private store: another process holds this folder\'s index)';
        }
        tips.push(line);
      }
      if (s.lastError) {
        tips.push(`Last error: ${s.lastError}`);
      }
    }

    // A compaction (parley/compact) keeps the agent as busy as a turn.
    const chats = [...this.active.values()].filter((a) => a.kind === 'chat' || a.kind === 'compact');
    if (chats.length > 0 || this.chats > 0) {
      busy = true;
      const c = chats[0];
      const doing = c?.message ? ` ${c.message}` : '';
      parts.push(`$(loading~spin) agent${doing}`);
      tips.push(`Agent running${c ? `: ${c.title.replace(/^parley: /, '')}` : ''}${c?.message ? ` (${c.message})` : ''}`);
    }
    tips.push('Click for index status and actions.');
    return { text: parts.join('  '), tooltip: tips.join('\n'), busy, warning };
  }
}
