// A stand-in for the `vscode` module, good enough to activate the built
// extension (dist/extension.js) with the real vscode-languageclient and a
// real `parley serve`, without VS Code. It records what the extension shows
// (status bar, messages, quick picks, applied edits) and lets the test play
// the user (webview messages, dialog answers). Unknown API members resolve
// to inert stubs so features the test does not exercise still initialise.

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

type Listener = (e: any) => any;

export class Disposable {
  static from(...ds: { dispose(): any }[]) {
    return new Disposable(() => ds.forEach((d) => d?.dispose?.()));
  }
  constructor(private readonly fn: () => void = () => undefined) {}
  dispose() {
    this.fn();
  }
}

export class EventEmitter<T = any> {
  private ls: Listener[] = [];
  event = (l: Listener) => {
    this.ls.push(l);
    return new Disposable(() => (this.ls = this.ls.filter((x) => x !== l)));
  };
  fire(e: T) {
    for (const l of [...this.ls]) {
      l(e);
    }
  }
  dispose() {
    this.ls = [];
  }
}

export class CancellationTokenSource {
  private em = new EventEmitter<void>();
  private c = false;
  token = (() => {
    const self = this;
    return {
      get isCancellationRequested() {
        return self.c;
      },
      onCancellationRequested: (l: Listener) => self.em.event(l),
    };
  })();
  cancel() {
    if (!this.c) {
      this.c = true;
      this.em.fire();
    }
  }
  dispose() {}
}

export class CancellationError extends Error {}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
    readonly fragment = '',
  ) {}
  static file(p: string) {
    return new Uri('file', '', p.replace(/\\/g, '/'));
  }
  static parse(s: string) {
    const u = new URL(s);
    return new Uri(u.protocol.replace(/:$/, ''), u.host, decodeURIComponent(u.pathname), u.search.replace(/^\?/, ''), u.hash.replace(/^#/, ''));
  }
  static joinPath(base: Uri, ...parts: string[]) {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...parts));
  }
  get fsPath() {
    return this.path;
  }
  with(c: Partial<{ scheme: string; path: string }>) {
    return new Uri(c.scheme ?? this.scheme, this.authority, c.path ?? this.path);
  }
  toString() {
    return this.scheme === 'file' ? pathToFileURL(this.path).href : `${this.scheme}://${this.authority}${this.path}`;
  }
  toJSON() {
    return this.toString();
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}
export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: any, b: any, c?: number, d?: number) {
    if (typeof a === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c!, d!);
    } else {
      this.start = a;
      this.end = b;
    }
  }
}
export class Selection extends Range {}
export class ThemeColor {
  constructor(readonly id: string) {}
}
export class ThemeIcon {
  constructor(readonly id: string) {}
}

/** Records the entries the client's converter puts in a workspace edit. */
export class WorkspaceEdit {
  readonly entries: { op: string; uri: string; range?: Range; text?: string; metadata?: any }[] = [];
  replace(uri: Uri, range: Range, text: string, metadata?: any) {
    this.entries.push({ op: 'replace', uri: uri.toString(), range, text, metadata });
  }
  insert(uri: Uri, position: Position, text: string, metadata?: any) {
    this.entries.push({ op: 'insert', uri: uri.toString(), range: new Range(position, position), text, metadata });
  }
  delete(uri: Uri, range: Range, metadata?: any) {
    this.entries.push({ op: 'delete', uri: uri.toString(), range, metadata });
  }
  set(uri: Uri, edits: any[]) {
    for (const e of edits) {
      const te = Array.isArray(e) ? e[0] : e;
      const md = Array.isArray(e) ? e[1] : undefined;
      this.entries.push({ op: 'set', uri: uri.toString(), range: te.range, text: te.newText, metadata: md });
    }
  }
  createFile(uri: Uri, _o?: any, metadata?: any) {
    this.entries.push({ op: 'create', uri: uri.toString(), metadata });
  }
  deleteFile(uri: Uri, _o?: any, metadata?: any) {
    this.entries.push({ op: 'deleteFile', uri: uri.toString(), metadata });
  }
  renameFile(a: Uri, _b: Uri, _o?: any, metadata?: any) {
    this.entries.push({ op: 'rename', uri: a.toString(), metadata });
  }
  get size() {
    return this.entries.length;
  }
}

export class TextEdit {
  constructor(
    readonly range: Range,
    readonly newText: string,
  ) {}
  static replace(range: Range, text: string) {
    return new TextEdit(range, text);
  }
  static insert(p: Position, text: string) {
    return new TextEdit(new Range(p, p), text);
  }
  static delete(range: Range) {
    return new TextEdit(range, '');
  }
}

/** Any member nobody defined: callable, constructible, and every property another stub. */
function inert(name: string): any {
  const fn = function () {
    return inert(`${name}()`);
  };
  return new Proxy(fn, {
    get(_t, p) {
      if (p === 'then') {
        return undefined; // not a thenable
      }
      if (typeof p === 'symbol') {
        return p === Symbol.toPrimitive ? () => 0 : undefined;
      }
      if (p === 'dispose') {
        return () => undefined;
      }
      return inert(`${name}.${String(p)}`);
    },
    construct() {
      return inert(`new ${name}`);
    },
    apply() {
      return new Disposable();
    },
  });
}

function withFallback<T extends object>(name: string, o: T): T {
  return new Proxy(o, {
    get(t, p) {
      if (p in t) {
        return (t as any)[p];
      }
      if (p === 'then' || typeof p === 'symbol') {
        return undefined;
      }
      // Events (onDidX) are functions that return a Disposable.
      if (String(p).startsWith('on')) {
        return () => new Disposable();
      }
      return inert(`${name}.${String(p)}`);
    },
  });
}

export interface Recorder {
  settings: Record<string, unknown>;
  statusTexts: string[];
  messages: { kind: string; message: string; items: any[] }[];
  quickPicks: any[][];
  /** showInputBox's options, and what the "user" types (undefined: Escape). */
  inputBoxes: any[];
  inputBoxAnswer: string | undefined;
  appliedEdits: WorkspaceEdit[];
  applyEditResult: boolean;
  commands: Map<string, (...a: any[]) => any>;
  contextKeys: Map<string, unknown>;
  webviewProviders: Map<string, any>;
  output: string[];
  configListeners: Listener[];
  /** Answers to modal/notification messages, by message text prefix. */
  answer: (message: string, items: any[]) => any;
  /** Tree views by id: their data provider and the view (message, visibility). */
  treeViews: Map<string, { provider: any; view: any; setVisible(v: boolean): void }>;
  /** Queued answers to showInputBox, used before inputBoxAnswer. */
  inputBoxQueue: (string | undefined)[];
  /** Queued answers to showQuickPick: the value or label of the item to pick. */
  quickPickQueue: (string | undefined)[];
  /** Untitled documents opened with openTextDocument({content}). */
  documents: string[];
}

export function createVscodeStub(folder: string) {
  const rec: Recorder = {
    settings: {},
    statusTexts: [],
    messages: [],
    quickPicks: [],
    inputBoxes: [],
    inputBoxAnswer: undefined,
    appliedEdits: [],
    applyEditResult: true,
    commands: new Map(),
    contextKeys: new Map(),
    webviewProviders: new Map(),
    output: [],
    configListeners: [],
    answer: () => undefined,
    treeViews: new Map(),
    inputBoxQueue: [],
    quickPickQueue: [],
    documents: [],
  };
  const wsFolder = { uri: Uri.file(folder), name: path.basename(folder), index: 0 };
  const show = (kind: string) => async (message: string, ...rest: any[]) => {
    const items = rest.filter((x) => !(x && typeof x === 'object' && ('modal' in x || 'detail' in x)));
    rec.messages.push({ kind, message, items });
    return rec.answer(message, items);
  };
  const outputChannel = (name: string) =>
    withFallback('OutputChannel', {
      name,
      append: (s: string) => rec.output.push(s),
      appendLine: (s: string) => rec.output.push(s + '\n'),
      replace: () => undefined,
      clear: () => undefined,
      show: () => undefined,
      hide: () => undefined,
      dispose: () => undefined,
    });
  const config = (section?: string) => {
    const key = (k: string) => (section ? `${section}.${k}` : k);
    return withFallback('WorkspaceConfiguration', {
      get: (k: string, d?: unknown) => (key(k) in rec.settings ? rec.settings[key(k)] : d),
      inspect: (k: string) => ({ key: key(k), globalValue: rec.settings[key(k)] }),
      has: (k: string) => key(k) in rec.settings,
      update: async () => undefined,
    });
  };

  const vscode = {
    version: '1.90.0',
    Disposable,
    EventEmitter,
    CancellationTokenSource,
    CancellationError,
    Uri,
    Position,
    Range,
    Selection,
    ThemeColor,
    ThemeIcon,
    WorkspaceEdit,
    TextEdit,
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    QuickPickItemKind: { Separator: -1, Default: 0 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    env: withFallback('env', { appName: 'stub', language: 'en', machineId: 'stub', uriScheme: 'vscode', openExternal: async () => true }),
    l10n: { t: (s: string) => s },
    extensions: withFallback('extensions', { getExtension: () => undefined, all: [] }),
    commands: withFallback('commands', {
      registerCommand: (id: string, fn: (...a: any[]) => any) => {
        rec.commands.set(id, fn);
        return new Disposable(() => rec.commands.delete(id));
      },
      executeCommand: async (id: string, ...args: any[]) => {
        if (id === 'setContext') {
          rec.contextKeys.set(args[0], args[1]);
          return undefined;
        }
        return rec.commands.get(id)?.(...args);
      },
      getCommands: async () => [...rec.commands.keys()],
    }),
    window: withFallback('window', {
      activeTextEditor: undefined,
      visibleTextEditors: [],
      tabGroups: { all: [], onDidChangeTabs: () => new Disposable() },
      createOutputChannel: outputChannel,
      createStatusBarItem: () => {
        const item: any = { show: () => undefined, hide: () => undefined, dispose: () => undefined };
        let text = '';
        Object.defineProperty(item, 'text', {
          get: () => text,
          set: (v: string) => {
            text = v;
            rec.statusTexts.push(v);
          },
        });
        return item;
      },
      registerWebviewViewProvider: (id: string, provider: any) => {
        rec.webviewProviders.set(id, provider);
        return new Disposable();
      },
      showInformationMessage: show('info'),
      showWarningMessage: show('warning'),
      showErrorMessage: show('error'),
      showQuickPick: async (items: any[]) => {
        const list = await items;
        rec.quickPicks.push(list);
        if (rec.quickPickQueue.length === 0) {
          return undefined;
        }
        const want = rec.quickPickQueue.shift();
        return list.find((i: any) => i.value === want || i.label === want);
      },
      showInputBox: async (o: any) => {
        rec.inputBoxes.push(o);
        return rec.inputBoxQueue.length > 0 ? rec.inputBoxQueue.shift() : rec.inputBoxAnswer;
      },
      createTreeView: (id: string, o: any) => {
        const visibility = new EventEmitter<{ visible: boolean }>();
        const view = { message: undefined as string | undefined, visible: false, onDidChangeVisibility: visibility.event, dispose: () => undefined };
        rec.treeViews.set(id, {
          provider: o.treeDataProvider,
          view,
          setVisible: (v: boolean) => {
            view.visible = v;
            visibility.fire({ visible: v });
          },
        });
        return view;
      },
      setStatusBarMessage: (m: string) => {
        rec.messages.push({ kind: 'statusBar', message: m, items: [] });
        return new Disposable();
      },
      withProgress: async (_o: any, task: any) => task({ report: () => undefined }, new CancellationTokenSource().token),
      showTextDocument: async () => undefined,
    }),
    workspace: withFallback('workspace', {
      workspaceFolders: [wsFolder],
      textDocuments: [],
      isTrusted: true,
      getConfiguration: config,
      getWorkspaceFolder: (u: Uri) => (u.path.startsWith(folder) ? wsFolder : undefined),
      asRelativePath: (u: Uri | string) => path.relative(folder, typeof u === 'string' ? u : u.path),
      onDidChangeConfiguration: (l: Listener) => {
        rec.configListeners.push(l);
        return new Disposable();
      },
      applyEdit: async (e: WorkspaceEdit) => {
        rec.appliedEdits.push(e);
        return rec.applyEditResult;
      },
      createFileSystemWatcher: () => withFallback('FileSystemWatcher', { dispose: () => undefined }),
      openTextDocument: async (o: any) => {
        rec.documents.push(o?.content ?? '');
        return { uri: Uri.parse('untitled:/doc'), getText: () => o?.content ?? '' };
      },
    }),
    languages: withFallback('languages', {
      match: () => 10,
      getDiagnostics: () => [],
      createDiagnosticCollection: (name: string) =>
        withFallback('DiagnosticCollection', { name, set: () => undefined, delete: () => undefined, clear: () => undefined, dispose: () => undefined, forEach: () => undefined, get: () => undefined, has: () => false }),
    }),
  };
  return { vscode: withFallback('vscode', vscode), rec };
}
