// workspace/applyEdit: parley sends every agent edit this way. The edit is
// converted by the language client (change annotations with
// needsConfirmation become VS Code's WorkspaceEditEntryMetadata, so VS Code
// opens the Refactor Preview where each file and change can be checked or
// unchecked, then applied or discarded; VS Code starts such changes
// unchecked, and Apply with none checked applies nothing and reports the
// edit as not applied, as Discard does) and applied with
// workspace.applyEdit, which puts it on the undo stack: Ctrl+Z takes it
// back. This replaces the client's own handler only to tell the server why
// an edit was not applied (failureReason), which the agent reads.

import type * as lsp from 'vscode-languageserver-protocol';

export interface ApplyDeps<E> {
  /** The language client's protocol2CodeConverter.asWorkspaceEdit. */
  convert(edit: lsp.WorkspaceEdit): Promise<E>;
  /** Open documents' URIs (as strings, like the converter's) and versions. */
  openVersions(): Map<string, number>;
  /** The converter's URI normalisation. */
  uriKey(uri: string): string;
  /** vscode.workspace.applyEdit. */
  apply(edit: E): Thenable<boolean>;
  /**
   * Told before an edit that waits for the user's confirmation (the
   * extension shows a hint); what it returns is called once the user has
   * decided, so the hint goes with the preview.
   */
  onConfirm?(label: string | undefined, files: number): (() => void) | void;
  onSettled?(applied: boolean): void;
}

/** Whether VS Code will ask: some change annotation needs confirmation. */
export function needsConfirmation(edit: lsp.WorkspaceEdit): boolean {
  return Object.values(edit.changeAnnotations ?? {}).some((a) => a.needsConfirmation === true);
}

/** The files an edit touches. */
export function editedFiles(edit: lsp.WorkspaceEdit): string[] {
  const out = new Set<string>();
  for (const c of edit.documentChanges ?? []) {
    if ('textDocument' in c) {
      out.add(c.textDocument.uri);
    } else if (c.kind === 'rename') {
      out.add(c.oldUri);
    } else {
      out.add(c.uri);
    }
  }
  for (const uri of Object.keys(edit.changes ?? {})) {
    out.add(uri);
  }
  return [...out];
}

/** A versioned edit for an open document whose version moved on. */
export function staleDocument(edit: lsp.WorkspaceEdit, open: Map<string, number>, key: (u: string) => string): string | undefined {
  for (const c of edit.documentChanges ?? []) {
    if ('textDocument' in c && typeof c.textDocument.version === 'number' && c.textDocument.version >= 0) {
      const v = open.get(key(c.textDocument.uri));
      if (v !== undefined && v !== c.textDocument.version) {
        return c.textDocument.uri;
      }
    }
  }
  return undefined;
}

export async function applyWorkspaceEdit<E>(
  params: lsp.ApplyWorkspaceEditParams,
  deps: ApplyDeps<E>,
): Promise<lsp.ApplyWorkspaceEditResult> {
  const stale = staleDocument(params.edit, deps.openVersions(), deps.uriKey);
  if (stale) {
    return { applied: false, failureReason: `${stale} changed in the editor since it was read; read it again` };
  }
  const confirm = needsConfirmation(params.edit);
  let converted: E;
  try {
    converted = await deps.convert(params.edit);
  } catch (e) {
    return { applied: false, failureReason: `the editor could not read the edit: ${e instanceof Error ? e.message : String(e)}` };
  }
  const decided = confirm ? deps.onConfirm?.(params.label, editedFiles(params.edit).length) : undefined;
  let applied = false;
  try {
    applied = await deps.apply(converted);
  } finally {
    decided?.();
    deps.onSettled?.(applied);
  }
  if (applied) {
    return { applied: true };
  }
  return {
    applied: false,
    failureReason: confirm
      ? 'the user did not apply the change in the editor\'s preview (discarded it, or applied it with none of its changes ticked)'
      : 'the editor could not apply the change (the file may have changed or be read-only)',
  };
}
