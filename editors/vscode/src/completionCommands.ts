// Registers inline completion (completion.ts) with VS Code: the provider
// for the documents the language client serves, the status bar switch, the
// commands and the read-only documents of parley: Show Completion Context.
// Next-edit proposals (nextEditCommands.ts) are registered here too: the
// same switch silences them.

import * as vscode from 'vscode';
import {
  ACCEPT_COMMAND,
  type CompletionClient,
  CompletionProvider,
  CompletionState,
  DEFAULT_SNOOZE_MINUTES,
  completionStatus,
  parseMinutes,
} from './completion';
import { showCompletionContext } from './completionContext';
import type { NextEditClient } from './nextEdit';
import { registerNextEdit } from './nextEditCommands';
import type { LspCommand } from './protocol';

export const CONTEXT_SCHEME = 'parley-completion';

/** The language client's documents (its documentSelector). */
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }];

function settingEnabled(): boolean {
  return vscode.workspace.getConfiguration('parley').get<boolean>('completion.enabled') ?? true;
}

/** Read-only markdown documents under parley-completion:, by URI. */
class ContextDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '(This completion context is no longer available.)';
  }

  set(uri: vscode.Uri, content: string): void {
    this.docs.set(uri.toString(), content);
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** LSP 3.18's textDocument.inlineCompletion client capability (static registration). */
export function fillCompletionCapabilities(caps: { textDocument?: object }): void {
  const td = (caps.textDocument ??= {}) as Record<string, unknown>;
  td.inlineCompletion = { dynamicRegistration: false };
}

export function registerCompletion(opts: {
  memento: vscode.Memento;
  client: () => (CompletionClient & NextEditClient) | undefined;
  log: (m: string) => void;
}): vscode.Disposable {
  const state = new CompletionState(opts.memento);
  const provider = new CompletionProvider({
    client: opts.client,
    active: () => settingEnabled() && state.mode() === 'on',
    log: opts.log,
  });
  const nextEdit = registerNextEdit({
    client: opts.client,
    log: opts.log,
    switchOn: () => state.mode() === 'on',
    completionShowing: (uri, version) => provider.showingIn(uri, version),
  });
  const item = vscode.window.createStatusBarItem('parley.completion', vscode.StatusBarAlignment.Right, 100);
  item.name = 'parley completion';
  item.command = 'parley.completion.menu';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = () => {
    clearTimeout(timer);
    const v = completionStatus(state.mode(), state.remaining(), settingEnabled());
    item.text = v.text;
    item.tooltip = v.tooltip;
    nextEdit.controller.refresh();
    const left = state.remaining();
    if (left > 0) {
      // The minutes left, and the end of the snooze.
      timer = setTimeout(update, Math.min(left, 60_000) + 50);
    }
  };
  const hideGhostText = () => void vscode.commands.executeCommand('editor.action.inlineSuggest.hide').then(undefined, () => undefined);

  const toggle = async () => {
    if (!settingEnabled()) {
      const pick = await vscode.window.showInformationMessage(
        'parley: inline completion is turned off by the parley.completion.enabled setting.',
        'Open Settings',
      );
      if (pick === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'parley.completion.enabled');
      }
      return;
    }
    if ((await state.toggle()) !== 'on') {
      hideGhostText();
    }
    update();
  };
  const snooze = async (minutes?: unknown) => {
    let m = typeof minutes === 'number' && minutes > 0 ? minutes : undefined;
    if (m === undefined) {
      const typed = await vscode.window.showInputBox({
        title: 'Snooze parley inline completion',
        prompt: 'For how many minutes?',
        value: String(DEFAULT_SNOOZE_MINUTES),
        validateInput: (v) => (parseMinutes(v) === undefined ? 'A number of minutes, more than 0 and at most 1440.' : undefined),
      });
      m = parseMinutes(typed);
    }
    if (m === undefined) {
      return;
    }
    await state.snooze(m);
    hideGhostText();
    update();
  };

  const docs = new ContextDocuments();
  let shown = 0;
  const showContext = () =>
    showCompletionContext(opts.client(), provider.lastCompletion(), {
      info: (m) => void vscode.window.showInformationMessage(m),
      warn: (m) => void vscode.window.showWarningMessage(m),
      show: async (markdown, id) => {
        const name = id !== undefined ? String(id).replace(/[^\w.-]+/g, '_') : `last-${++shown}`;
        const uri = vscode.Uri.parse(`${CONTEXT_SCHEME}:/completion-${name}.md`);
        docs.set(uri, markdown);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: true });
      },
    });

  const menu = async () => {
    type Item = vscode.QuickPickItem & { run: () => unknown };
    const mode = state.mode();
    const items: Item[] = [];
    if (!settingEnabled()) {
      items.push({ label: '$(settings-gear) Open the parley.completion.enabled setting', run: toggle });
    } else if (mode === 'on') {
      items.push({ label: '$(circle-slash) Turn off in this workspace', run: toggle });
      items.push({ label: `$(clock) Snooze for ${DEFAULT_SNOOZE_MINUTES} minutes`, run: () => snooze(DEFAULT_SNOOZE_MINUTES) });
      items.push({ label: '$(clock) Snooze for…', run: () => snooze() });
    } else {
      items.push({ label: '$(sparkle) Turn on', run: toggle });
    }
    items.push({ label: '$(info) Show the context of the last completion', run: showContext });
    const pick = await vscode.window.showQuickPick(items, { title: 'parley inline completion', placeHolder: completionStatus(mode, state.remaining(), settingEnabled()).tooltip });
    await pick?.run();
  };

  update();
  item.show();
  return vscode.Disposable.from(
    item,
    docs,
    nextEdit.disposable,
    { dispose: () => clearTimeout(timer) },
    vscode.languages.registerInlineCompletionItemProvider(SELECTOR, provider),
    vscode.workspace.registerTextDocumentContentProvider(CONTEXT_SCHEME, docs),
    vscode.commands.registerCommand('parley.completion.toggle', toggle),
    vscode.commands.registerCommand('parley.completion.snooze', snooze),
    vscode.commands.registerCommand('parley.completion.showContext', showContext),
    vscode.commands.registerCommand('parley.completion.menu', menu),
    vscode.commands.registerCommand(ACCEPT_COMMAND, (command?: LspCommand) => provider.accepted(command)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('parley.completion')) {
        update();
        if (!settingEnabled()) {
          hideGhostText();
        }
      }
    }),
  );
}
