// parley for VS Code: starts `parley serve` through vscode-languageclient
// and wires the chat view, the status bar and the commands to it.

import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  ApplyWorkspaceEditRequest,
  DidChangeConfigurationNotification,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  ShowMessageRequest,
  State,
  type StaticFeature,
  WorkDoneProgress,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
  type ProgressToken,
} from 'vscode-languageclient/node';
import { applyWorkspaceEdit } from './applyEdit';
import { handleShowMessageRequest } from './approvals';
import { ChatController, type EditorContext } from './chatController';
import { ChatViewProvider } from './chatView';
import { type DiagnosticsParams, DiagnosticsAnswerer, toLspDiagnostic } from './diagnostics';
import { fillCompletionCapabilities, registerCompletion } from './completionCommands';
import { RESTART_SETTINGS, type Settings, didChangeConfigurationParams, initializationOptions } from './config';
import { buildContext } from './editorContext';
import { type MemoryViewHandle, registerMemoryView } from './memoryCommands';
import { type ChatEvent, type IndexStatus, Methods, ServerCommands } from './protocol';
import { resolveServerCommand } from './serverPath';
import { StatusModel, type ProgressValue, tokenKind } from './status';

let ext: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  ext = new Extension(context);
  context.subscriptions.push(ext);
  await ext.start();
}

export async function deactivate(): Promise<void> {
  await ext?.stopClient();
  ext = undefined;
}

function settings(): Settings {
  return vscode.workspace.getConfiguration('parley');
}

function severity(s: vscode.DiagnosticSeverity): number {
  return s + 1; // vscode: Error 0 … Hint 3; LSP: Error 1 … Hint 4
}

class Extension implements vscode.Disposable {
  private client?: LanguageClient;
  private readonly output: vscode.OutputChannel;
  private readonly statusItem: vscode.StatusBarItem;
  private readonly status = new StatusModel();
  private readonly chat: ChatController;
  private readonly view: ChatViewProvider;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly indexTokens = new Set<ProgressToken>();
  private memoryView?: MemoryViewHandle;
  private lastEditor?: vscode.TextEditor;
  private statusPoll?: ReturnType<typeof setTimeout>;
  /** Answers parley/diagnostics from every language server's diagnostics. */
  private readonly diagnostics = new DiagnosticsAnswerer({
    diagnostics: (u) => vscode.languages.getDiagnostics(vscode.Uri.parse(u)).map(toLspDiagnostic),
    version: (u) => {
      const key = vscode.Uri.parse(u).toString();
      return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key)?.version;
    },
    uriKey: (u) => vscode.Uri.parse(u).toString(),
    language: (u) => {
      const key = vscode.Uri.parse(u).toString();
      return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key)?.languageId;
    },
  });
  private selectionTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('parley');
    this.statusItem = vscode.window.createStatusBarItem('parley.status', vscode.StatusBarAlignment.Left, 10);
    this.statusItem.name = 'parley';
    this.statusItem.command = 'parley.showIndexStatus';
    this.lastEditor = vscode.window.activeTextEditor;

    const view = () => this.view;
    this.chat = new ChatController(
      {
        client: () => (this.client?.state === State.Running ? this.client : undefined),
        view: {
          post: (m) => view().post(m),
          get visible() {
            return view().visible;
          },
          reveal: (preserveFocus) => view().reveal(preserveFocus),
        },
        editorContext: () => this.editorContext(),
        openFile: (uri) => void this.openFile(uri),
        openLink: (href) => void this.openLink(href),
        confirm: async (message, action) =>
          (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
        askModal: (message, actions) => vscode.window.showWarningMessage(message, { modal: true }, ...actions),
        restartServer: () => void this.restart(),
        askCompactFocus: () =>
          vscode.window.showInputBox({
            title: 'Compact the conversation',
            prompt: 'What should the summary keep above all? Leave empty for no particular focus.',
            placeHolder: 'e.g. the failing checkout test',
          }),
        onRunning: (n) => {
          this.status.setChatsRunning(n);
          void vscode.commands.executeCommand('setContext', 'parley.chatRunning', n > 0);
          this.updateStatus();
        },
        onTurnEnd: () => {
          void this.refreshIndexStatus();
          this.memoryView?.refreshIfShown();
        },
        log: (m) => this.output.appendLine(m),
      },
      { includeContext: settings().get<boolean>('chat.includeEditorContext') ?? true },
    );
    this.view = new ChatViewProvider(
      context.extensionUri,
      (m) => void this.chat.onMessage(m),
      () => this.chat.viewHidden(),
    );

    this.disposables.push(
      this.output,
      this.statusItem,
      this.chat,
      this.view,
      vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, this.view, {
        webviewOptions: { retainContextWhenHidden: true },
      }),
      vscode.commands.registerCommand('parley.askAboutSelection', () => this.askAboutSelection()),
      vscode.commands.registerCommand('parley.newSession', async () => {
        await this.view.reveal(false);
        this.chat.newSession();
      }),
      vscode.commands.registerCommand('parley.showSessions', async () => {
        await this.view.reveal(false);
        this.view.post({ type: 'showSessions' });
        await this.chat.refreshSessions();
      }),
      vscode.commands.registerCommand('parley.stop', () => this.chat.stop()),
      vscode.commands.registerCommand('parley.compact', async () => {
        await this.view.reveal(true);
        await this.chat.compactAsking();
      }),
      vscode.commands.registerCommand('parley.reindex', () => this.reindex()),
      vscode.commands.registerCommand('parley.showIndexStatus', () => this.showIndexStatus()),
      vscode.commands.registerCommand('parley.restartServer', () => this.restart()),
      vscode.commands.registerCommand('parley.showOutput', () => this.output.show(true)),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e) {
          this.lastEditor = e;
        }
        this.chat.editorChanged();
      }),
      vscode.window.onDidChangeTextEditorSelection(() => {
        clearTimeout(this.selectionTimer);
        this.selectionTimer = setTimeout(() => this.chat.editorChanged(), 150);
      }),
      vscode.languages.onDidChangeDiagnostics((e) => {
        this.diagnostics.changed(e.uris.map((u) => u.toString()));
        this.chat.editorChanged();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.diagnostics.closed(d.uri.toString())),
      vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)),
      (this.memoryView = registerMemoryView(() => this.running(), (m) => this.output.appendLine(m))),
      registerCompletion({
        memento: context.workspaceState,
        client: () => this.running(),
        log: (m) => this.output.appendLine(m),
      }),
    );
    this.updateStatus();
    this.statusItem.show();
  }

  dispose(): void {
    clearTimeout(this.statusPoll);
    clearTimeout(this.selectionTimer);
    for (const d of this.disposables) {
      d.dispose();
    }
  }

  // ---- the language client ----

  private createClient(): LanguageClient {
    const s = settings();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const cmd = resolveServerCommand({
      configured: s.inspect<string>('path')?.globalValue,
      extensionPath: this.context.extensionPath,
      platform: process.platform,
      homeDir: os.homedir(),
      workspaceFolder: folder,
      isExecutable: (p) => {
        try {
          fs.accessSync(p, fs.constants.X_OK);
          return fs.statSync(p).isFile();
        } catch {
          return false;
        }
      },
    });
    this.output.appendLine(`parley: starting ${cmd.command} ${cmd.args.join(' ')} (from ${cmd.source})`);
    const exe = { command: cmd.command, args: cmd.args, options: { env: process.env } };
    const serverOptions: ServerOptions = { run: exe, debug: exe };
    const navigation = () => settings().get<boolean>('navigation.enable') ?? true;
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file' }],
      initializationOptions: () => initializationOptions(settings()),
      outputChannel: this.output,
      diagnosticCollectionName: 'parley',
      markdown: { isTrusted: false, supportHtml: false },
      middleware: {
        // Code actions' commands run a whole turn: show it in the chat view
        // and let Stop cancel it.
        executeCommand: (command, args, next) =>
          (ServerCommands as readonly string[]).includes(command)
            ? this.chat.runServerCommand(command, args)
            : next(command, args),
        provideHover: (d, p, t, next) => (navigation() ? next(d, p, t) : undefined),
        provideDefinition: (d, p, t, next) => (navigation() ? next(d, p, t) : undefined),
        provideReferences: (d, p, o, t, next) => (navigation() ? next(d, p, o, t) : undefined),
        provideDocumentHighlights: (d, p, t, next) => (navigation() ? next(d, p, t) : undefined),
        provideDocumentSymbols: (d, t, next) => (navigation() ? next(d, t) : undefined),
      },
    };
    const client = new LanguageClient('parley', 'parley', serverOptions, clientOptions);

    // Registered before start: they replace the client's own handlers.
    client.onRequest(ShowMessageRequest.type, (params, token) =>
      handleShowMessageRequest(params, token, {
        askInChat: (message, actions, tok) => this.chat.askInChat(message, actions, tok),
        askModal: (message, detail, actions) =>
          Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions)),
        showMessage: (type, message, actions) => {
          const show =
            type === 1 ? vscode.window.showErrorMessage : type === 2 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
          return Promise.resolve(show(message, ...actions));
        },
      }),
    );
    client.onRequest(ApplyWorkspaceEditRequest.type, (params) =>
      applyWorkspaceEdit(params, {
        convert: (edit) => client.protocol2CodeConverter.asWorkspaceEdit(edit),
        openVersions: () => new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d.version])),
        uriKey: (u) => client.protocol2CodeConverter.asUri(u).toString(),
        apply: (edit) => vscode.workspace.applyEdit(edit),
        onConfirm: (label, files) => {
          const hint = vscode.window.setStatusBarMessage(
            `$(diff) parley: review ${label ? `"${label}"` : 'the change'} (${files} file${files === 1 ? '' : 's'}) in the Refactor Preview: tick the changes to keep, then Apply, or Discard`,
          );
          return () => hint.dispose();
        },
      }),
    );
    client.onRequest(Methods.diagnostics, (params: DiagnosticsParams, token) => this.diagnostics.answer(params, token));
    const createProgress = (params: { token: ProgressToken }) => this.trackProgress(client, params.token);
    client.onRequest(WorkDoneProgressCreateRequest.type, createProgress);
    // The client's ProgressFeature registers its own handler once
    // initialized; this feature comes after it and takes the method back.
    const feature: StaticFeature = {
      getState: () => ({ kind: 'static' }),
      // Inline completion has its own provider (completion.ts), not the
      // client's proposed feature: the capability is said here.
      fillClientCapabilities: (caps) => fillCompletionCapabilities(caps),
      initialize: () => {
        client.onRequest(WorkDoneProgressCreateRequest.type, createProgress);
      },
      clear: () => undefined,
    };
    client.registerFeature(feature);

    client.onNotification(Methods.event, (e: ChatEvent) => this.chat.onEvent(e));
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.status.setServer('running');
        this.chat.setServerState('running');
        void this.refreshIndexStatus();
      } else if (e.newState === State.Stopped) {
        this.status.setServer('stopped', 'stopped');
        this.chat.setServerState('stopped');
        this.indexTokens.clear();
      } else {
        this.status.setServer('starting');
        this.chat.setServerState('starting');
      }
      this.updateStatus();
    });
    return client;
  }

  /** One $/progress item: the status bar shows it instead of a notification. */
  private trackProgress(client: LanguageClient, token: ProgressToken): void {
    const kind = tokenKind(token);
    if (kind === 'index') {
      this.indexTokens.add(token);
    }
    const sub = client.onProgress(WorkDoneProgress.type, token, (value) => {
      this.status.progress(token, value as ProgressValue);
      if (value.kind === 'end') {
        sub.dispose();
        this.indexTokens.delete(token);
        if (kind === 'index') {
          void this.refreshIndexStatus();
        }
      }
      this.updateStatus();
    });
  }

  async start(): Promise<void> {
    this.client = this.createClient();
    this.status.setServer('starting');
    this.updateStatus();
    try {
      await this.client.start();
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.status.setServer('stopped', msg);
      this.chat.setServerState('stopped', msg);
      this.updateStatus();
      this.output.appendLine(`parley: the server did not start: ${msg}`);
      const pick = await vscode.window.showErrorMessage(
        `parley: could not start the language server (${msg}). Install parley on PATH or set parley.path.`,
        'Open Settings',
        'Show Output',
      );
      if (pick === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'parley.path');
      } else if (pick === 'Show Output') {
        this.output.show(true);
      }
    }
  }

  async stopClient(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) {
      try {
        await c.stop(5000);
      } catch {
        // already stopped or never started
      }
      await c.dispose().catch(() => undefined);
    }
  }

  private async restart(): Promise<void> {
    await this.stopClient();
    this.status.clearProgress();
    this.indexTokens.clear();
    await this.start();
  }

  private running(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (e.affectsConfiguration('parley.agent')) {
      const c = this.running();
      if (c) {
        void c.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams(settings()));
      }
    }
    if (e.affectsConfiguration('parley.chat.includeEditorContext')) {
      void this.chat.onMessage({ type: 'includeContext', include: settings().get<boolean>('chat.includeEditorContext') ?? true });
      this.chat.editorChanged();
    }
    if (RESTART_SETTINGS.some((k) => e.affectsConfiguration(k))) {
      void vscode.window
        .showInformationMessage('parley: restart the language server to apply the new settings?', 'Restart')
        .then((pick) => (pick === 'Restart' ? this.restart() : undefined));
    }
  }

  // ---- index status ----

  private async refreshIndexStatus(): Promise<IndexStatus | undefined> {
    const c = this.running();
    if (!c) {
      return undefined;
    }
    try {
      const s = await c.sendRequest<IndexStatus>(Methods.indexStatus, {});
      this.status.setIndexStatus(s);
      this.updateStatus();
      // A run without progress items (a client that refused the token,
      // a run started elsewhere): poll while it lasts.
      clearTimeout(this.statusPoll);
      if (s.indexing && this.indexTokens.size === 0) {
        this.statusPoll = setTimeout(() => void this.refreshIndexStatus(), 2000);
      }
      return s;
    } catch (e) {
      this.output.appendLine(`parley/indexStatus: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  private updateStatus(): void {
    const v = this.status.view();
    this.statusItem.text = v.text;
    this.statusItem.tooltip = v.tooltip;
    this.statusItem.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  private async reindex(): Promise<void> {
    const c = this.running();
    if (!c) {
      void vscode.window.showWarningMessage('parley: the language server is not running.');
      return;
    }
    try {
      await c.sendRequest(Methods.reindex, {});
      vscode.window.setStatusBarMessage('parley: reindexing…', 3000);
      await this.refreshIndexStatus();
    } catch (e) {
      void vscode.window.showErrorMessage(`parley: reindex failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async showIndexStatus(): Promise<void> {
    const s = await this.refreshIndexStatus();
    type Item = vscode.QuickPickItem & { run?: () => unknown };
    const items: Item[] = [];
    if (s) {
      items.push({
        label: `$(database) ${s.files.toLocaleString('en-US')} files · ${s.symbols.toLocaleString('en-US')} symbols`,
        description: s.indexing ? 'indexing…' : 'up to date',
        detail: s.lastError ? `Last error: ${s.lastError}` : undefined,
      });
      for (const f of s.folders ?? []) {
        const parts = [`${f.files.toLocaleString('en-US')} files`, `${f.symbols.toLocaleString('en-US')} symbols`];
        if (f.indexing) {
          parts.push(`indexing ${f.done}/${f.total}`);
        }
        if (f.lastRun) {
          parts.push(`last run ${new Date(f.lastRun).toLocaleString()}`);
        }
        items.push({
          label: `$(folder) ${f.root}`,
          description: parts.join(' · '),
          detail: [f.private ? 'Private store: another process holds this folder\'s index.' : '', f.lastError ? `Error: ${f.lastError}` : '']
            .filter((x) => x)
            .join(' ') || undefined,
        });
      }
    } else {
      items.push({ label: '$(error) The language server is not running', description: 'see the output' });
    }
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    if (this.indexTokens.size > 0) {
      items.push({
        label: '$(close) Cancel indexing',
        run: () => {
          for (const token of this.indexTokens) {
            void this.client?.sendNotification(WorkDoneProgressCancelNotification.type, { token });
          }
        },
      });
    }
    items.push({ label: '$(refresh) Reindex', run: () => this.reindex() });
    items.push({ label: '$(output) Show output', run: () => this.output.show(true) });
    items.push({ label: '$(debug-restart) Restart the language server', run: () => this.restart() });
    const pick = await vscode.window.showQuickPick(items, { title: 'parley index', placeHolder: 'Index status' });
    await pick?.run?.();
  }

  // ---- editor context ----

  private editorContext(): EditorContext | undefined {
    const c = this.client;
    let editor = vscode.window.activeTextEditor;
    if (!editor && this.lastEditor && vscode.window.visibleTextEditors.includes(this.lastEditor)) {
      editor = this.lastEditor;
    }
    if (!editor || !c) {
      return undefined;
    }
    const uri = editor.document.uri;
    if (uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(uri)) {
      return undefined; // the server only takes files inside the folders
    }
    const c2p = c.code2ProtocolConverter;
    const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    return buildContext({
      uri: c2p.asUri(uri),
      relativePath: vscode.workspace.asRelativePath(uri, multi),
      selection: c2p.asRange(editor.selection),
      diagnostics: vscode.languages.getDiagnostics(uri).map((d) => ({
        range: c2p.asRange(d.range),
        message: d.message,
        severity: severity(d.severity),
        source: d.source,
        code: typeof d.code === 'object' ? d.code.value : d.code,
      })),
    });
  }

  private async askAboutSelection(): Promise<void> {
    const ctx = this.editorContext();
    if (!ctx) {
      void vscode.window.showInformationMessage('parley: open a file of the workspace and select the code to ask about.');
    }
    await this.chat.askAboutSelection(ctx);
  }

  private async openFile(uri: string): Promise<void> {
    try {
      const u = this.client ? this.client.protocol2CodeConverter.asUri(uri) : vscode.Uri.parse(uri);
      await vscode.window.showTextDocument(u, { preview: true, preserveFocus: false });
    } catch (e) {
      void vscode.window.showWarningMessage(`parley: cannot open ${uri}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async openLink(href: string): Promise<void> {
    let u: vscode.Uri;
    try {
      u = vscode.Uri.parse(href, true);
    } catch {
      return;
    }
    if (u.scheme === 'http' || u.scheme === 'https' || u.scheme === 'mailto') {
      await vscode.env.openExternal(u);
    } else if (u.scheme === 'file') {
      await this.openFile(href);
    }
  }
}
