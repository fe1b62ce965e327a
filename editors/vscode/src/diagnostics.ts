// parley/diagnostics (docs/protocol.md): the server asks, after each of
// the agent's edits, what the editor's language servers say about the
// touched files. VS Code's diagnostics carry no document version, so the
// answerer remembers, for each document, its version when its diagnostics
// last changed: once that is the edit's version or later, the language
// servers have analysed the edit.

export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  source?: string;
  code?: string | number;
  message: string;
}

export interface DiagnosticsParams {
  uris: string[];
  version?: number;
  timeoutMs?: number;
}

export interface DiagnosticsItem {
  uri: string;
  diagnostics: LspDiagnostic[];
  settled: boolean;
}

export interface DiagnosticsResult {
  items: DiagnosticsItem[];
}

/** What the answerer needs of VS Code (injected, so tests need none). */
export interface DiagnosticsHost {
  /** The document's diagnostics from every source, LSP-shaped. */
  diagnostics(uri: string): LspDiagnostic[];
  /** The open document's version; undefined when it is not open. */
  version(uri: string): number | undefined;
  /** A stable key for a URI string (the server's and VS Code's spellings differ). */
  uriKey(uri: string): string;
  /** The open document's language id. */
  language?(uri: string): string | undefined;
}

export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

/**
 * How long a document's diagnostics must stay unchanged to count as
 * settled. VS Code's TypeScript support reports in stages (syntax first,
 * then the type checker's), each a change of the document's diagnostics:
 * the quiet period must span the gap between them.
 */
export const QUIET_MS = 500;
/**
 * How long a document nothing ever reported on, of a language nothing
 * reported on either, is given for a first report: without a language
 * server for its language (a Markdown file, Go without the Go extension)
 * none comes, and waiting the whole timeout after every edit would only
 * slow the agent down. A new file of a language that has reports is
 * waited for as long as the timeout allows.
 */
export const FIRST_REPORT_MS = 1000;
const POLL_MS = 25;
const MAX_TIMEOUT_MS = 60_000;

export class DiagnosticsAnswerer {
  /** Per document key: its version and the time when its diagnostics last changed. */
  private readonly analysed = new Map<string, { version: number; at: number }>();
  /** Languages some document of which had its diagnostics reported. */
  private readonly reporting = new Set<string>();

  constructor(
    private readonly host: DiagnosticsHost,
    private readonly now: () => number = Date.now,
  ) {}

  /** languages.onDidChangeDiagnostics: note the documents' versions. */
  changed(uris: string[]): void {
    for (const u of uris) {
      const key = this.host.uriKey(u);
      this.analysed.set(key, { version: this.host.version(u) ?? -1, at: this.now() });
      const lang = this.host.language?.(u);
      if (lang) {
        this.reporting.add(lang);
      }
    }
  }

  /** A closed document forgets what was noted. */
  closed(uri: string): void {
    this.analysed.delete(this.host.uriKey(uri));
  }

  /** Nothing reported on uri, nor on another document of its language. */
  private silent(uri: string): boolean {
    if (this.analysed.has(this.host.uriKey(uri))) {
      return false;
    }
    const lang = this.host.language?.(uri);
    return !lang || !this.reporting.has(lang);
  }

  private settled(uri: string, version: number): boolean {
    const a = this.analysed.get(this.host.uriKey(uri));
    return a !== undefined && a.version >= version && this.now() - a.at >= QUIET_MS;
  }

  async answer(p: DiagnosticsParams, token?: Cancellation): Promise<DiagnosticsResult> {
    const uris = Array.isArray(p?.uris) ? p.uris.filter((u) => typeof u === 'string') : [];
    const version = typeof p?.version === 'number' ? p.version : undefined;
    const timeout = Math.min(Math.max(Number(p?.timeoutMs) || 0, 0), MAX_TIMEOUT_MS);
    const pending = new Set(version === undefined ? [] : uris);
    const start = this.now();
    const deadline = start + timeout;
    const firstReport = start + Math.min(timeout, FIRST_REPORT_MS);
    while (pending.size > 0 && this.now() < deadline && !token?.isCancellationRequested) {
      for (const u of [...pending]) {
        const unreported = this.silent(u) && this.now() >= firstReport;
        if (this.settled(u, version!) || unreported) {
          pending.delete(u);
        }
      }
      if (pending.size > 0) {
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    }
    return {
      items: uris.map((uri) => ({ uri, diagnostics: this.host.diagnostics(uri), settled: !pending.has(uri) })),
    };
  }
}

/** The parts of a vscode.Diagnostic the conversion reads. */
export interface CodeDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number; // vscode: Error 0 … Hint 3
  source?: string;
  code?: string | number | { value: string | number };
  message: string;
}

/** A vscode.Diagnostic as LSP sends one (severity counts from 1). */
export function toLspDiagnostic(d: CodeDiagnostic): LspDiagnostic {
  const out: LspDiagnostic = {
    range: {
      start: { line: d.range.start.line, character: d.range.start.character },
      end: { line: d.range.end.line, character: d.range.end.character },
    },
    severity: d.severity + 1,
    message: d.message,
  };
  if (d.source) {
    out.source = d.source;
  }
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  if (code !== undefined) {
    out.code = code;
  }
  return out;
}
