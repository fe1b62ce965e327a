// The active editor as parley/chat's context {uri, range, diagnostics} and
// as the label the chat view shows.

import type { ChatContext, Diagnostic, Range } from './protocol';
import type { ContextInfo } from './webview/messages';

/** At most this many diagnostics go with a message. */
export const MAX_DIAGNOSTICS = 20;

export interface SimpleRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface ContextInput {
  /** The document's URI as the server knows it (file:…). */
  uri: string;
  /** The path relative to its workspace folder, for the label. */
  relativePath: string;
  /** The selection; undefined or empty: the file only. */
  selection?: SimpleRange;
  /** The document's diagnostics (already in LSP shape). */
  diagnostics: Diagnostic[];
}

export function isEmpty(r: SimpleRange | undefined): boolean {
  return !r || (r.start.line === r.end.line && r.start.character === r.end.character);
}

function before(a: { line: number; character: number }, b: { line: number; character: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

export function intersects(a: SimpleRange, b: SimpleRange): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/**
 * The context for one message: with a selection, its range and the
 * diagnostics that touch it; without one, the file and its errors and
 * warnings. A selection ending at column 0 of a line leaves that line out
 * of the label (as VS Code counts selected lines).
 */
export function buildContext(c: ContextInput): { context: ChatContext; info: ContextInfo } {
  const context: ChatContext = { uri: c.uri };
  let label = c.relativePath;
  let diags: Diagnostic[];
  if (!isEmpty(c.selection)) {
    const r = c.selection as Range;
    context.range = r;
    let endLine = r.end.line;
    if (r.end.character === 0 && endLine > r.start.line) {
      endLine--;
    }
    label += r.start.line === endLine ? `:${r.start.line + 1}` : `:${r.start.line + 1}-${endLine + 1}`;
    diags = c.diagnostics.filter((d) => intersects(d.range, r));
  } else {
    // Errors and warnings only (severity 1 and 2; unset counts as error).
    diags = c.diagnostics.filter((d) => (d.severity ?? 1) <= 2);
  }
  diags = diags.slice(0, MAX_DIAGNOSTICS);
  if (diags.length > 0) {
    context.diagnostics = diags;
  }
  return { context, info: { label, uri: c.uri, diagnostics: diags.length || undefined } };
}
