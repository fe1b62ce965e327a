// The small part of the vscode API the unit-tested modules use at run
// time. vitest.config.ts aliases 'vscode' to this file.

type Listener<T> = (e: T) => unknown;

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (l: Listener<T>): Disposable => {
    this.listeners.push(l);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((x) => x !== l);
    });
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

export interface CancellationToken {
  isCancellationRequested: boolean;
  onCancellationRequested: (l: Listener<void>) => Disposable;
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  private cancelled = false;
  readonly token: CancellationToken;
  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    this.token = {
      get isCancellationRequested() {
        return self.cancelled;
      },
      onCancellationRequested: (l) => {
        if (self.cancelled) {
          l();
          return new Disposable();
        }
        return self.emitter.event(l);
      },
    };
  }
  cancel(): void {
    if (!this.cancelled) {
      this.cancelled = true;
      this.emitter.fire();
    }
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class ThemeIcon {
  constructor(readonly id: string) {}
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static parse(s: string): Uri {
    const m = /^([a-z][\w+.-]*):(?:\/\/)?(.*)$/i.exec(s);
    return m ? new Uri(m[1], m[2]) : new Uri('file', s);
  }
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

/** Records its edits in order: the unit tests read them back. */
export class WorkspaceEdit {
  readonly edits: { uri: Uri; range: Range; newText: string }[] = [];
  replace(uri: Uri, range: Range, newText: string): void {
    this.edits.push({ uri, range, newText });
  }
  get size(): number {
    return new Set(this.edits.map((e) => e.uri.toString())).size;
  }
}

export enum TextDocumentChangeReason {
  Undo = 1,
  Redo = 2,
}

export class SnippetString {
  constructor(readonly value: string) {}
}

export enum InlineCompletionTriggerKind {
  Invoke = 0,
  Automatic = 1,
}

export class InlineCompletionItem {
  filterText?: string;
  constructor(
    public insertText: string | SnippetString,
    public range?: Range,
    public command?: { title: string; command: string; arguments?: unknown[] },
  ) {}
}

export class InlineCompletionList {
  constructor(public items: InlineCompletionItem[]) {}
}

export default {
  Disposable,
  EventEmitter,
  CancellationTokenSource,
  ThemeIcon,
  Position,
  Range,
  SnippetString,
  Uri,
  WorkspaceEdit,
  TextDocumentChangeReason,
  InlineCompletionTriggerKind,
  InlineCompletionItem,
  InlineCompletionList,
};
