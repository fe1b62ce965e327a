// The memory view: a tree in the parley activity-bar container listing the
// agent's long-term memories (parley/memoryList, or parley/memorySearch
// results while a search is on), with commands to search, show stale ones,
// show, add, edit and forget (after a confirmation) a memory, and the
// stores' stats.
//
// Like the chat controller it talks to the language client and the UI
// through small interfaces, so the unit tests drive it with fakes.

import * as vscode from 'vscode';
import {
  type Memory,
  type MemoryAddParams,
  type MemoryEditParams,
  type MemoryFilter,
  type MemoryScope,
  type MemoryStoreStats,
  Methods,
  MemoryTypes,
} from './protocol';
import { clip, memoryDetail, memoryItem, parseImportance, parseTags, statsLines } from './memoryModel';

export interface MemoryClient {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

export interface PickItem {
  label: string;
  description?: string;
  value: string;
}

export interface MemoryUI {
  /** An input box; undefined when the user pressed Escape. */
  input(o: { title: string; prompt?: string; value?: string; placeHolder?: string }): Thenable<string | undefined>;
  pick(items: PickItem[], o: { title: string; placeHolder?: string }): Thenable<PickItem | undefined>;
  /** A modal yes/no; resolves true when confirmed. */
  confirm(message: string, detail: string, action: string): Thenable<boolean>;
  info(message: string): void;
  error(message: string): void;
  /** Opens Markdown text in a read-only editor. */
  showMarkdown(text: string): void;
}

export interface MemoryHost {
  /** The running language client, or undefined while it is not running. */
  client(): MemoryClient | undefined;
  ui: MemoryUI;
  /** The view's message line (what is listed, or why nothing is). */
  setMessage?(text: string | undefined): void;
  log?(msg: string): void;
}

export class MemoryController implements vscode.TreeDataProvider<Memory>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Memory | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** What the view lists now. */
  memories: Memory[] = [];
  /** The search on, if any ('' or undefined: the whole list). */
  query?: string;
  staleOnly = false;

  constructor(private readonly host: MemoryHost) {}

  dispose(): void {
    this.changed.dispose();
  }

  getTreeItem(m: Memory): vscode.TreeItem {
    const v = memoryItem(m);
    return {
      id: `${m.ref}@${m.updated ?? m.created}`,
      label: v.label,
      description: v.description,
      tooltip: v.tooltip,
      iconPath: new vscode.ThemeIcon(v.icon),
      contextValue: v.context,
      command: { command: 'parley.memory.show', title: 'Show Memory', arguments: [m] },
    };
  }

  getChildren(m?: Memory): Memory[] {
    return m ? [] : this.memories;
  }

  private async request<R>(method: string, params: unknown): Promise<R | undefined> {
    const c = this.host.client();
    if (!c) {
      this.host.ui.error('parley: the language server is not running.');
      return undefined;
    }
    try {
      return await c.sendRequest<R>(method, params);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.host.log?.(`${method}: ${msg}`);
      this.host.ui.error(`parley: ${msg}`);
      return undefined;
    }
  }

  /** Lists the memories again (the search's results while one is on). */
  async refresh(): Promise<void> {
    let res: { memories: Memory[] } | undefined;
    if (this.query) {
      res = await this.request(Methods.memorySearch, { query: this.query, k: 50 });
    } else {
      const f: MemoryFilter = this.staleOnly ? { stale: true } : {};
      res = await this.request(Methods.memoryList, f);
    }
    this.memories = res?.memories ?? [];
    this.changed.fire(undefined);
    this.host.setMessage?.(this.message(res !== undefined));
  }

  private message(answered: boolean): string | undefined {
    if (!answered) {
      return 'Memories are unavailable (is the server running?).';
    }
    const n = this.memories.length;
    if (this.query) {
      return n ? `${n} memor${n === 1 ? 'y' : 'ies'} matching "${this.query}"` : `No memory matches "${this.query}".`;
    }
    if (this.staleOnly) {
      return n ? `${n} stale: edit to confirm, or forget.` : 'No stale memories.';
    }
    return n ? undefined : 'No memories yet. The agent writes them with remember; add one with +.';
  }

  /** Asks for words and lists the best matches; empty words end the search. */
  async search(): Promise<void> {
    const q = await this.host.ui.input({
      title: 'Search memories',
      prompt: 'Words to search for (empty: list every memory)',
      value: this.query ?? '',
    });
    if (q === undefined) {
      return;
    }
    this.query = q.trim() || undefined;
    await this.refresh();
  }

  /** Lists only stale memories, or everything again. */
  async toggleStale(): Promise<void> {
    this.staleOnly = !this.staleOnly;
    this.query = undefined;
    await this.refresh();
  }

  /** The memory a command acts on: its argument, else one the user picks. */
  private async target(m: Memory | undefined, title: string): Promise<Memory | undefined> {
    if (m?.ref) {
      return m;
    }
    if (this.memories.length === 0) {
      await this.refresh();
    }
    const pick = await this.host.ui.pick(
      this.memories.map((x) => ({ label: clip(x.content, 80), description: `[${x.ref}] ${x.type}`, value: x.ref })),
      { title, placeHolder: 'Pick a memory' },
    );
    return this.memories.find((x) => x.ref === pick?.value);
  }

  async show(arg?: Memory): Promise<void> {
    const m = await this.target(arg, 'Show memory');
    if (!m) {
      return;
    }
    const res = await this.request<{ memory: Memory }>(Methods.memoryShow, { id: m.ref });
    if (res) {
      this.host.ui.showMarkdown(memoryDetail(res.memory));
    }
  }

  async add(): Promise<void> {
    const content = await this.host.ui.input({ title: 'Add a memory (1/4)', prompt: 'What should the agent remember?' });
    if (!content?.trim()) {
      return;
    }
    const type = await this.pickType('Add a memory (2/4): type', 'fact');
    if (!type) {
      return;
    }
    const imp = await this.askImportance('Add a memory (3/4)', 5);
    if (imp === undefined) {
      return;
    }
    const scope = await this.host.ui.pick(
      [
        { label: 'This workspace', value: 'workspace' },
        { label: 'Every workspace (user)', description: 'personal preferences', value: 'user' },
      ],
      { title: 'Add a memory (4/4): scope' },
    );
    if (!scope) {
      return;
    }
    const params: MemoryAddParams = { content, type, importance: imp, scope: scope.value as MemoryScope };
    const res = await this.request<{ memory: Memory }>(Methods.memoryAdd, params);
    if (res) {
      this.host.ui.info(`parley: remembered as ${res.memory.ref}.`);
      await this.refresh();
    }
  }

  async edit(arg?: Memory): Promise<void> {
    const m = await this.target(arg, 'Edit memory');
    if (!m) {
      return;
    }
    const field = await this.host.ui.pick(
      [
        { label: 'Content', description: clip(m.content, 60), value: 'content' },
        { label: 'Type', description: m.type, value: 'type' },
        { label: 'Importance', description: String(m.importance), value: 'importance' },
        { label: 'Tags', description: (m.tags ?? []).join(', '), value: 'tags' },
        { label: 'Confirm as still true', description: 'clears the stale mark', value: 'confirm' },
      ],
      { title: `Edit memory ${m.ref}`, placeHolder: 'What to change' },
    );
    if (!field) {
      return;
    }
    const p: MemoryEditParams = { id: m.ref };
    switch (field.value) {
      case 'content': {
        const v = await this.host.ui.input({ title: `Edit memory ${m.ref}`, value: m.content });
        if (!v?.trim()) {
          return;
        }
        p.content = v;
        break;
      }
      case 'type': {
        const t = await this.pickType(`Memory ${m.ref}: type`, m.type);
        if (!t) {
          return;
        }
        p.type = t;
        break;
      }
      case 'importance': {
        const n = await this.askImportance(`Memory ${m.ref}`, m.importance);
        if (n === undefined) {
          return;
        }
        p.importance = n;
        break;
      }
      case 'tags': {
        const v = await this.host.ui.input({ title: `Memory ${m.ref}: tags`, prompt: 'Comma- or space-separated', value: (m.tags ?? []).join(', ') });
        if (v === undefined) {
          return;
        }
        p.tags = parseTags(v);
        break;
      }
    }
    const res = await this.request<{ memory: Memory }>(Methods.memoryEdit, p);
    if (res) {
      this.host.ui.info(`parley: memory ${res.memory.ref} saved.`);
      await this.refresh();
    }
  }

  async forget(arg?: Memory): Promise<void> {
    const m = await this.target(arg, 'Forget memory');
    if (!m) {
      return;
    }
    if (!(await this.host.ui.confirm(`Forget memory ${m.ref}?`, m.content, 'Forget'))) {
      return;
    }
    const res = await this.request<{ memory: Memory }>(Methods.memoryForget, { id: m.ref });
    if (res) {
      this.host.ui.info(`parley: forgot memory ${res.memory.ref}.`);
      await this.refresh();
    }
  }

  async stats(): Promise<void> {
    const res = await this.request<{ stores: MemoryStoreStats[] }>(Methods.memoryStats, {});
    if (res) {
      this.host.ui.info(`parley: ${statsLines(res.stores).join('; ')}`);
    }
  }

  private async pickType(title: string, current: string): Promise<string | undefined> {
    const items = MemoryTypes.map((t) => ({ label: t, description: t === current ? 'current' : undefined, value: t }));
    return (await this.host.ui.pick(items, { title }))?.value;
  }

  /** Asks for an importance (1-10); undefined when cancelled or invalid. */
  private async askImportance(title: string, current: number): Promise<number | undefined> {
    const v = await this.host.ui.input({ title: `${title}: importance`, prompt: '1 (trivia) to 10 (essential)', value: String(current) });
    if (v === undefined) {
      return undefined;
    }
    const n = parseImportance(v);
    if (n === undefined) {
      this.host.ui.error(`parley: importance must be a whole number from 1 to 10, not "${v}".`);
    }
    return n;
  }
}
