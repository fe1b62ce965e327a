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

export default { Disposable, EventEmitter, CancellationTokenSource, ThemeIcon };
