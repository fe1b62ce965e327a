import { ICONS } from './webview/icons';

// The chat view's HTML. Pure (no vscode import): the extension fills in the
// webview's URIs, and the Chromium tests serve the same page from
// localhost.

export interface ChatHtmlOptions {
  /** webview.cspSource (or the test server's origin). */
  cspSource: string;
  /** A fresh random nonce per render. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Content-Security-Policy: no inline or remote script (only the nonced
 * bundle), no remote images (model output must not be able to load a URL
 * that carries data away), styles from the extension only.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function chatHtml(o: ChatHtmlOptions): string {
  const nonce = esc(o.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${esc(o.styleUri)}" nonce="${nonce}">
<title>parley</title>
</head>
<body>
<header class="bar">
  <span id="title" class="title">New session</span>
  <span class="spacer"></span>
  <button id="compact" class="icon" title="Compact the conversation (summarise it to free context)" aria-label="Compact conversation">${ICONS.compact}</button>
  <button id="history" class="icon" title="Sessions" aria-label="Sessions" aria-expanded="false">${ICONS.history}</button>
  <button id="new" class="icon" title="New session" aria-label="New session">${ICONS.plus}</button>
</header>
<nav id="sessions" class="sessions" hidden></nav>
<div id="server" class="banner" hidden><span id="server-text"></span> <button id="restart" class="secondary" hidden>Restart</button></div>
<main id="transcript" class="transcript" aria-live="polite">
  <div id="empty" class="empty">
    <p><strong>Ask parley about your code.</strong></p>
    <p>The active file and selection go with your message. Edits open in the Refactor Preview for you to accept or discard, and Ctrl+Z undoes them.</p>
  </div>
</main>
<div id="notice" class="banner error" hidden><span id="notice-text"></span> <button id="notice-close" class="icon" aria-label="Dismiss">${ICONS.close}</button></div>
<div id="approvals" class="approvals"></div>
<footer id="composer" class="composer">
  <div id="context" class="context" hidden>
    <label title="Send the active file, selection and diagnostics with the message"><input type="checkbox" id="include-context" checked> ${ICONS.clip} <span id="context-label"></span></label>
    <button id="unpin" class="icon" title="Don't send this selection" aria-label="Remove context" hidden>${ICONS.close}</button>
  </div>
  <div id="prompt-menu" class="prompt-menu" role="listbox" aria-label="Prompt commands" hidden></div>
  <div id="mention-menu" class="prompt-menu mention-menu" role="listbox" aria-label="Mentions: files, symbols, diagnostics, changes, selection, URL" hidden></div>
  <div id="attachments" class="attachments" role="list" aria-label="Attached images" hidden></div>
  <div class="input-row">
    <textarea id="input" rows="3" placeholder="Ask parley… (@ to mention a file or symbol, Enter to send, Shift+Enter for a new line)" aria-label="Message"></textarea>
    <button id="send" title="Send (Enter)">Send</button>
    <button id="stop" class="danger" title="Stop (Esc)" hidden>Stop</button>
  </div>
</footer>
<script nonce="${nonce}" src="${esc(o.scriptUri)}"></script>
</body>
</html>`;
}
