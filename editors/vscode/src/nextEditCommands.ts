// Registers next-edit proposals (nextEdit.ts) with VS Code: the events
// that ask for and dismiss them, the decorations that draw them, the
// parley.nextEditVisible context key that package.json's Tab and Escape
// keybindings wait for, and their commands.

import * as vscode from 'vscode';
import { DEFAULT_DEBOUNCE_MS, type NextEditClient, NextEditController, type NextEditEditor, type NextEditView, type RenderPlan, shownText } from './nextEdit';

export const VISIBLE_KEY = 'parley.nextEditVisible';
export const ACCEPT_OR_JUMP = 'parley.nextEdit.acceptOrJump';
export const DISMISS = 'parley.nextEdit.dismiss';

/** The language client's documents (its documentSelector). */
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }];

function config() {
  return vscode.workspace.getConfiguration('parley');
}

/** The proposal as an inline diff: the replaced text struck through, the new text after it, a hint at the end of the first edit's line. */
class DecorationView implements NextEditView {
  private readonly edit = vscode.window.createTextEditorDecorationType({
    textDecoration: 'line-through',
    backgroundColor: new vscode.ThemeColor('diffEditor.removedTextBackground'),
    after: {
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
      textDecoration: 'none',
      margin: '0 0 0 1px',
    },
  });
  private readonly hint = vscode.window.createTextEditorDecorationType({
    after: {
      color: new vscode.ThemeColor('editorGhostText.foreground'),
      fontStyle: 'italic',
      margin: '0 0 0 2em',
    },
  });
  private editor?: vscode.TextEditor;
  private visible = false;

  show(editor: NextEditEditor | undefined, plan: RenderPlan | undefined): void {
    if (this.editor && this.editor !== editor) {
      this.editor.setDecorations(this.edit, []);
      this.editor.setDecorations(this.hint, []);
    }
    this.editor = editor as vscode.TextEditor | undefined;
    if (!this.editor) {
      return;
    }
    const ed = this.editor;
    const edits = plan?.edits ?? [];
    ed.setDecorations(
      this.edit,
      edits.map((e) => ({ range: e.range, hoverMessage: hover(plan!.why, e.newText), renderOptions: { after: { contentText: shownText(e.newText) } } })),
    );
    if (!plan || plan.hint.line >= ed.document.lineCount) {
      ed.setDecorations(this.hint, []);
      return;
    }
    const end = ed.document.lineAt(plan.hint.line).range.end;
    ed.setDecorations(this.hint, [{ range: new vscode.Range(end, end), renderOptions: { after: { contentText: plan.hint.text } } }]);
  }

  setVisible(visible: boolean): void {
    if (visible !== this.visible) {
      this.visible = visible;
      void vscode.commands.executeCommand('setContext', VISIBLE_KEY, visible);
    }
  }

  dispose(): void {
    this.edit.dispose();
    this.hint.dispose();
    if (this.visible) {
      void vscode.commands.executeCommand('setContext', VISIBLE_KEY, false);
    }
  }
}

/** An edit's hover: what the proposal does and the whole new text. */
function hover(why: string, newText: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendText(`parley: ${why}\n\n`);
  if (newText === '') {
    md.appendText('(deletes this text)');
  } else {
    md.appendCodeblock(newText);
  }
  return md;
}

export function registerNextEdit(opts: {
  client: () => NextEditClient | undefined;
  log: (m: string) => void;
  /** The completion status switch: on (not off, not snoozed). */
  switchOn: () => boolean;
  /** Ghost text may be showing in the document (protocol URI) at this version. */
  completionShowing: (uri: string, version: number) => boolean;
}): { controller: NextEditController; disposable: vscode.Disposable } {
  const view = new DecorationView();
  const controller = new NextEditController({
    client: opts.client,
    active: () => (config().get<boolean>('nextEdit.enabled') ?? true) && opts.switchOn(),
    debounceMs: () => {
      const ms = config().get<number>('nextEdit.debounceMs');
      return typeof ms === 'number' && Number.isFinite(ms) ? ms : DEFAULT_DEBOUNCE_MS;
    },
    serves: (doc) => vscode.languages.match(SELECTOR, doc as vscode.TextDocument) > 0,
    completionShowing: opts.completionShowing,
    activeEditor: () => vscode.window.activeTextEditor,
    openDocuments: () => vscode.workspace.textDocuments,
    applyEdit: (edit) => vscode.workspace.applyEdit(edit),
    open: (uri, at) => vscode.window.showTextDocument(uri, { selection: new vscode.Range(at, at) }),
    view,
    log: opts.log,
  });
  const disposable = vscode.Disposable.from(
    { dispose: () => controller.dispose() },
    view,
    vscode.commands.registerCommand(ACCEPT_OR_JUMP, async () => {
      if ((await controller.acceptOrJump()) === 'none') {
        // Nothing shown here after all (the key lagged): the usual Tab.
        await vscode.commands.executeCommand('tab');
      }
    }),
    vscode.commands.registerCommand(DISMISS, () => controller.dismiss()),
    vscode.workspace.onDidChangeTextDocument((e) => controller.documentChanged(e)),
    vscode.window.onDidChangeTextEditorSelection((e) => controller.selectionChanged(e.textEditor)),
    vscode.window.onDidChangeActiveTextEditor(() => controller.activeEditorChanged()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('parley.nextEdit')) {
        controller.refresh();
      }
    }),
  );
  return { controller, disposable };
}
