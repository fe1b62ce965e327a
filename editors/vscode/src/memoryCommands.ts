// Registers the memory view (memoryView.ts) and its commands with VS Code.

import * as vscode from 'vscode';
import { type MemoryClient, MemoryController } from './memoryView';

export const MEMORY_VIEW_ID = 'parley.memory';

/** The registered view: dispose it, or refresh it when it is shown. */
export interface MemoryViewHandle extends vscode.Disposable {
  /** Lists the memories again if the view is visible (after a chat turn, which may have remembered or forgotten some). */
  refreshIfShown(): void;
}

export function registerMemoryView(client: () => MemoryClient | undefined, log: (m: string) => void): MemoryViewHandle {
  let view: vscode.TreeView<unknown> | undefined;
  const memory = new MemoryController({
    client,
    log,
    setMessage: (text) => {
      if (view) {
        view.message = text;
      }
    },
    ui: {
      input: (o) => vscode.window.showInputBox({ ...o, ignoreFocusOut: true }),
      pick: (items, o) => vscode.window.showQuickPick(items, o),
      confirm: async (message, detail, action) =>
        (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
      info: (m) => void vscode.window.showInformationMessage(m),
      error: (m) => void vscode.window.showErrorMessage(m),
      showMarkdown: async (content) => {
        const doc = await vscode.workspace.openTextDocument({ content, language: 'markdown' });
        await vscode.window.showTextDocument(doc, { preview: true });
      },
    },
  });
  view = vscode.window.createTreeView(MEMORY_VIEW_ID, { treeDataProvider: memory, showCollapseAll: false });
  const disposable = vscode.Disposable.from(
    memory,
    view,
    // The list is fetched when the view is first shown, not at startup.
    view.onDidChangeVisibility((e) => (e.visible ? void memory.refresh() : undefined)),
    vscode.commands.registerCommand('parley.memory.refresh', () => memory.refresh()),
    vscode.commands.registerCommand('parley.memory.search', () => memory.search()),
    vscode.commands.registerCommand('parley.memory.toggleStale', () => memory.toggleStale()),
    vscode.commands.registerCommand('parley.memory.show', (m) => memory.show(m)),
    vscode.commands.registerCommand('parley.memory.add', () => memory.add()),
    vscode.commands.registerCommand('parley.memory.edit', (m) => memory.edit(m)),
    vscode.commands.registerCommand('parley.memory.forget', (m) => memory.forget(m)),
    vscode.commands.registerCommand('parley.memory.stats', () => memory.stats()),
  );
  return {
    dispose: () => disposable.dispose(),
    refreshIfShown: () => {
      if (view?.visible) {
        void memory.refresh();
      }
    },
  };
}
