// The chat webview view (parley.chat in the parley activity-bar container).

import * as vscode from 'vscode';
import { chatHtml } from './chatHtml';
import type { ChatViewPort } from './chatController';
import type { FromView, ToView } from './webview/messages';

export function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) {
    s += chars.charAt(Math.floor(Math.random() * chars.length));
  }
  return s;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, ChatViewPort, vscode.Disposable {
  static readonly viewId = 'parley.chat';
  private view?: vscode.WebviewView;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (m: FromView) => void,
    private readonly onHidden: () => void,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [media, dist] };
    view.webview.html = chatHtml({
      cspSource: view.webview.cspSource,
      nonce: nonce(),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'chat.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css')).toString(),
    });
    this.disposables.push(
      view.webview.onDidReceiveMessage((m: FromView) => this.onMessage(m)),
      view.onDidChangeVisibility(() => {
        if (!view.visible) {
          this.onHidden();
        }
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.onHidden();
        }
      }),
    );
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  post(m: ToView): void {
    void this.view?.webview.postMessage(m);
  }

  async reveal(preserveFocus = false): Promise<void> {
    if (this.view) {
      this.view.show(preserveFocus);
      return;
    }
    // Not resolved yet: opening the view resolves it (the page then says "ready").
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}
