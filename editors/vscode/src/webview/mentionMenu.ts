// The "@" menu of the chat input: while the word at the caret starts with
// "@", the page asks the extension for parley/mentionCandidates (debounced
// as the user types; an answer to an older query is dropped) and shows
// them under the input. Taking one replaces the "@word" with the item's
// mention.text; the page keeps the Mention and, on send, passes those
// whose text is still in the message (keptMentions). The matching, the
// insertion and what is kept are plain functions the tests drive;
// MentionMenu binds them to the page. Keys are the "/" menu's (menuKey).

import type { Mention, MentionItem } from '../protocol';
import { menuKeydown } from './promptMenu';

/** The "@word" being typed: where its "@" is and what follows it. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** Characters that may come right before an "@" that starts a mention. */
const BEFORE = /[\s([{"'`,;]/;
/** Punctuation that may end a sentence right after a mention. */
const TRAILING = /[.,;:!?)\]}'"`]/;

/**
 * The mention being typed at cursor, or undefined: the caret must be at
 * the end of an "@word" that starts the text or follows a space or an
 * opening bracket ("a@b" is an address, not a mention). "@url:ADDR" being
 * typed is the address, not a query.
 */
export function mentionQuery(text: string, cursor: number): MentionQuery | undefined {
  const before = text.slice(0, cursor);
  const m = /@([^\s@]*)$/.exec(before);
  if (!m) {
    return undefined;
  }
  const start = before.length - m[0].length;
  if (start > 0 && !BEFORE.test(before[start - 1])) {
    return undefined;
  }
  if (/^url:/i.test(m[1])) {
    return undefined;
  }
  return { start, query: m[1] };
}

/**
 * The text after taking mention for q: the "@word" (up to the next space
 * after the caret) becomes mention.text, then a space unless one follows
 * already; "@url:" gets none, the address comes next.
 */
export function insertMention(text: string, cursor: number, q: MentionQuery, mention: Mention): { text: string; cursor: number } {
  const rest = text.slice(cursor);
  const tail = /^[^\s]*/.exec(rest)![0].length;
  const after = rest.slice(tail);
  const space = mention.text.endsWith(':') || /^\s/.test(after) ? '' : ' ';
  const inserted = mention.text + space;
  return { text: text.slice(0, q.start) + inserted + after, cursor: q.start + inserted.length };
}

/**
 * Whether mention text t stands in message as a word of its own: at the
 * start or after a space or bracket, and followed by the end, a space, or
 * punctuation that ends there ("see @a.go." keeps "@a.go"; "@a.go" does
 * not keep "@a").
 */
export function mentions(message: string, t: string): boolean {
  if (t === '') {
    return false;
  }
  for (let i = message.indexOf(t); i >= 0; i = message.indexOf(t, i + 1)) {
    if (i > 0 && !BEFORE.test(message[i - 1])) {
      continue;
    }
    const after = message.slice(i + t.length);
    if (/^(\s|$)/.test(after) || (TRAILING.test(after[0]) && /^.(\s|$)/.test(after))) {
      return true;
    }
  }
  return false;
}

/** The "@url:ADDR" words of a message, trailing punctuation left out. */
export function urlMentions(message: string): Mention[] {
  const out: Mention[] = [];
  for (const m of message.matchAll(/(?:^|[\s([{"'`,;])@url:(\S+)/g)) {
    const url = m[1].replace(/[.,;:!?)\]}'"`]+$/, '');
    if (url !== '') {
      out.push({ kind: 'url', text: `@url:${url}`, url });
    }
  }
  return out;
}

/**
 * The picked mentions to send with message: those whose text is still in
 * it, each text once; a picked "@url:" stands for every "@url:ADDR" the
 * message has.
 */
export function keptMentions(message: string, picked: Mention[]): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<string>();
  const add = (m: Mention) => {
    if (!seen.has(m.text)) {
      seen.add(m.text);
      out.push(m);
    }
  };
  for (const m of picked) {
    if (m.kind === 'url') {
      urlMentions(message).forEach(add);
    } else if (mentions(message, m.text)) {
      add(m);
    }
  }
  return out;
}

/** How long typing must pause before the candidates are asked for. */
export const DEBOUNCE_MS = 60;

/** MentionMenu shows the candidates for the "@word" at the caret and takes its keys. */
export class MentionMenu {
  private items: MentionItem[] = [];
  private selected = 0;
  private seq = 0;
  /** The query asked last (its answer is the only one shown). */
  private asked?: { id: number; query: string };
  private current?: MentionQuery;
  private timer?: ReturnType<typeof setTimeout>;
  private closedFor?: string; // Escape closed the menu for this text
  private picked: Mention[] = [];

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly el: HTMLElement,
    private readonly ask: (id: number, query: string) => void,
    private readonly debounceMs = DEBOUNCE_MS,
  ) {
    input.addEventListener('input', () => this.update());
    input.addEventListener('click', () => this.update());
    input.addEventListener('keyup', (e) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) {
        this.update(); // the caret left the word, or came back to one
      }
    });
    input.addEventListener('blur', () => this.close());
    el.addEventListener('mousedown', (e) => {
      const item = (e.target as HTMLElement).closest('[data-index]') as HTMLElement | null;
      if (item) {
        e.preventDefault();
        this.accept(Number(item.dataset.index));
      }
    });
  }

  get open(): boolean {
    return this.items.length > 0 && this.current !== undefined;
  }

  /** parley/mentionCandidates answered query id; an older query's answer is dropped. */
  setItems(id: number, items: MentionItem[]): void {
    if (!this.asked || id !== this.asked.id || this.current?.query !== this.asked.query) {
      return; // an answer to a query the user has typed past
    }
    this.selected = 0;
    this.render(items);
  }

  /** Handles a keydown; true when the menu took it. */
  key(e: KeyboardEvent): boolean {
    if (!this.open || e.isComposing) {
      return false;
    }
    return menuKeydown(e, this.selected, this.items.length, {
      accept: () => this.accept(this.selected),
      close: () => {
        this.closedFor = this.input.value;
        this.close();
      },
      select: (i) => {
        this.selected = i;
        this.render(this.items);
      },
    });
  }

  /** The mentions to send with message (see keptMentions); forgets the picks. */
  take(message: string): Mention[] {
    const kept = keptMentions(message, this.picked);
    this.picked = [];
    return kept;
  }

  private update(): void {
    const text = this.input.value;
    if (text !== this.closedFor) {
      this.closedFor = undefined;
    }
    const q = this.closedFor === undefined ? mentionQuery(text, this.input.selectionStart ?? text.length) : undefined;
    this.current = q;
    if (!q) {
      this.close();
      return;
    }
    if (this.asked?.query === q.query) {
      return; // the caret moved within the same word
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.asked = { id: ++this.seq, query: q.query };
      this.ask(this.asked.id, q.query);
    }, this.debounceMs);
  }

  private close(): void {
    clearTimeout(this.timer);
    this.current = undefined;
    this.asked = undefined;
    this.render([]);
  }

  private accept(i: number): void {
    const item = this.items[i];
    const q = this.current;
    if (!item || !q) {
      return;
    }
    const r = insertMention(this.input.value, this.input.selectionStart ?? this.input.value.length, q, item.mention);
    this.picked.push(item.mention);
    this.input.value = r.text;
    this.input.setSelectionRange(r.cursor, r.cursor);
    this.close();
    this.input.focus();
  }

  private render(items: MentionItem[]): void {
    this.items = items;
    this.el.hidden = items.length === 0;
    this.el.replaceChildren(
      ...items.map((it, i) => {
        const row = document.createElement('div');
        row.className = 'prompt-item mention-item' + (i === this.selected ? ' selected' : '');
        row.dataset.index = String(i);
        row.dataset.kind = it.mention.kind;
        row.setAttribute('role', 'option');
        row.setAttribute('aria-selected', String(i === this.selected));
        const name = document.createElement('span');
        name.className = 'prompt-name';
        name.textContent = it.label;
        const detail = document.createElement('span');
        detail.className = 'prompt-desc';
        detail.textContent = it.detail ?? '';
        row.append(name, detail);
        return row;
      }),
    );
    if (items.length > 0) {
      this.el.children[this.selected]?.scrollIntoView?.({ block: 'nearest' });
    }
  }
}
