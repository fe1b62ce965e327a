// The "/" menu of the chat input: the prompt commands whose names start
// with what follows the "/", shown while the message is just "/NAME" (no
// space yet). The matching and keys are plain functions the tests drive;
// PromptMenu binds them to the page.

import type { PromptCommand } from '../protocol';

/** The commands to offer for the input's text, or undefined for no menu. */
export function matchCommands(text: string, commands: PromptCommand[]): PromptCommand[] | undefined {
  const m = /^\/([^\s]*)$/.exec(text);
  if (!m) {
    return undefined;
  }
  const prefix = m[1].toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(prefix));
  // "review" also finds "frontend:review".
  const inner = commands.filter((c) => !starts.includes(c) && prefix !== '' && c.name.toLowerCase().includes(prefix));
  return [...starts, ...inner];
}

/** The input's text once a command is taken: "/NAME ", ready for arguments. */
export function completion(c: PromptCommand): string {
  return `/${c.name} `;
}

/** The menu's label for a command: name, argument hint, description. */
export function label(c: PromptCommand): { name: string; hint: string; description: string } {
  let description = c.description;
  if (c.needsApproval) {
    description += ' (shell lines not approved: run parley commands approve)';
  }
  return { name: '/' + c.name, hint: c.argumentHint ?? '', description };
}

/** What a key does to an open menu of n items with selected: null when the menu does not take it. */
export function menuKey(key: string, selected: number, n: number): { selected: number } | 'accept' | 'close' | null {
  switch (key) {
    case 'ArrowDown':
      return { selected: (selected + 1) % n };
    case 'ArrowUp':
      return { selected: (selected - 1 + n) % n };
    case 'Tab':
    case 'Enter':
      return 'accept';
    case 'Escape':
      return 'close';
  }
  return null;
}

/** menuKeydown applies a keydown to a menu of n items (menuKey); true when the menu took it. */
export function menuKeydown(
  e: KeyboardEvent,
  selected: number,
  n: number,
  on: { accept(): void; close(): void; select(i: number): void },
): boolean {
  const r = menuKey(e.key, selected, n);
  if (r === null || (e.key === 'Enter' && e.shiftKey)) {
    return false;
  }
  e.preventDefault();
  if (r === 'accept') {
    on.accept();
  } else if (r === 'close') {
    on.close();
  } else {
    on.select(r.selected);
  }
  return true;
}

/** PromptMenu shows matchCommands' result under the input and takes its keys. */
export class PromptMenu {
  private commands: PromptCommand[] = [];
  private shown: PromptCommand[] = [];
  private selected = 0;
  private closedFor?: string; // Escape closed the menu for this text

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly el: HTMLElement,
    private readonly askList: () => void,
  ) {
    input.addEventListener('input', () => this.update());
    el.addEventListener('mousedown', (e) => {
      const item = (e.target as HTMLElement).closest('[data-index]') as HTMLElement | null;
      if (item) {
        e.preventDefault();
        this.accept(Number(item.dataset.index));
      }
    });
  }

  /** The server's list arrived. */
  setCommands(commands: PromptCommand[]): void {
    this.commands = commands;
    this.update();
  }

  get open(): boolean {
    return this.shown.length > 0;
  }

  /** Handles a keydown; true when the menu took it. */
  key(e: KeyboardEvent): boolean {
    if (!this.open || e.isComposing) {
      return false;
    }
    return menuKeydown(e, this.selected, this.shown.length, {
      accept: () => this.accept(this.selected),
      close: () => {
        this.closedFor = this.input.value;
        this.render([]);
      },
      select: (i) => {
        this.selected = i;
        this.render(this.shown);
      },
    });
  }

  private update(): void {
    const text = this.input.value;
    if (text === '/') {
      this.askList(); // read again: the files may have changed
    }
    if (text !== this.closedFor) {
      this.closedFor = undefined;
    }
    const shown = this.closedFor === undefined ? (matchCommands(text, this.commands) ?? []) : [];
    if (shown.length !== this.shown.length || shown.some((c, i) => c !== this.shown[i])) {
      this.selected = 0;
    }
    this.render(shown);
  }

  private accept(i: number): void {
    const c = this.shown[i];
    if (!c) {
      return;
    }
    this.input.value = completion(c);
    this.render([]);
    this.input.focus();
  }

  private render(shown: PromptCommand[]): void {
    this.shown = shown;
    this.el.hidden = shown.length === 0;
    this.el.replaceChildren(
      ...shown.map((c, i) => {
        const l = label(c);
        const row = document.createElement('div');
        row.className = 'prompt-item' + (i === this.selected ? ' selected' : '');
        row.dataset.index = String(i);
        row.setAttribute('role', 'option');
        row.setAttribute('aria-selected', String(i === this.selected));
        const name = document.createElement('span');
        name.className = 'prompt-name';
        name.textContent = l.name;
        const hint = document.createElement('span');
        hint.className = 'prompt-hint';
        hint.textContent = l.hint;
        const desc = document.createElement('span');
        desc.className = 'prompt-desc';
        desc.textContent = l.description;
        row.append(name, hint, desc);
        return row;
      }),
    );
  }
}
