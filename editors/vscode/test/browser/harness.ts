// Serves the built chat page (the same HTML the extension gives the
// webview, dist/webview/chat.js and media/chat.css) on 127.0.0.1 and drives
// it in Debian's Chromium with playwright-core. acquireVsCodeApi is stubbed
// so that what the page posts to the extension is recorded; messages from
// the extension are fed with window.postMessage, as VS Code delivers them.
// Used by the browser tests.

import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chatHtml } from '../../src/chatHtml';
import type { FromView, ToView } from '../../src/webview/messages';
import type { TurnFixture } from '../fixtures';
import { root } from '../root';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);
/** Under CI the Chromium tests must run: a missing browser fails them. */
export const mustRunChromium = process.env.CI === 'true';

export { root };

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves / (the page) and files below dist/webview and media. */
export async function startPageServer(): Promise<PageServer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = `http://${req.headers.host}`;
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        chatHtml({
          cspSource: origin,
          nonce: 'test-nonce-' + Math.random().toString(36).slice(2),
          scriptUri: `${origin}/dist/webview/chat.js`,
          styleUri: `${origin}/media/chat.css`,
        }),
      );
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const rel = path.normalize(decodeURIComponent(url.pathname)).replace(/^[/\\]+/, '');
    const ok = rel.startsWith(`dist${path.sep}webview${path.sep}`) || rel.startsWith(`media${path.sep}`);
    const file = path.join(root, rel);
    if (!ok || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function launch(): Promise<Browser> {
  if (!fs.existsSync(path.join(root, 'dist', 'webview', 'chat.js'))) {
    throw new Error('dist/webview/chat.js is missing: run npm run build first');
  }
  const { chromium } = await import('playwright-core');
  // launch() gives every browser a new, empty profile directory of its own
  // (playwright refuses --user-data-dir here).
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ChatPage {
  page: Page;
  /** Messages the page posted to the "extension". */
  posted(): Promise<FromView[]>;
  clearPosted(): Promise<void>;
  /** Delivers messages from the "extension", in order, and waits until drawn. */
  feed(msgs: ToView[]): Promise<void>;
  /** Console errors and CSP violations seen so far. */
  problems: string[];
}

export async function openChat(browser: Browser, origin: string, viewport = { width: 420, height: 760 }): Promise<ChatPage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme: 'dark' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/.test(m.text())) {
      problems.push(m.text());
    }
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.addInitScript(() => {
    const w = window as unknown as { __posted: unknown[]; __received: number; acquireVsCodeApi: () => unknown };
    w.__posted = [];
    w.__received = 0;
    window.addEventListener('message', () => w.__received++);
    let state: unknown;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: unknown) => w.__posted.push(m),
      getState: () => state,
      setState: (s: unknown) => (state = s),
    });
  });
  await page.goto(origin + '/');
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  return {
    page,
    problems,
    posted: () => page.evaluate(() => (window as unknown as { __posted: FromView[] }).__posted),
    clearPosted: () => page.evaluate(() => void ((window as unknown as { __posted: unknown[] }).__posted.length = 0)),
    feed: async (msgs) => {
      const target = await page.evaluate((ms) => {
        const w = window as unknown as { __received: number };
        const t = w.__received + ms.length;
        for (const m of ms) {
          window.postMessage(m, '*');
        }
        return t;
      }, msgs);
      // Messages arrive as tasks; once all are in, the next frames draw them.
      await page.waitForFunction((t) => (window as unknown as { __received: number }).__received >= t, target);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    },
  };
}

/** The messages the extension posts for a turn the user typed. */
export function typedTurn(f: TurnFixture, opts: { upTo?: number; context?: ToView & { type: 'userMessage' } } = {}): ToView[] {
  const events = f.events.slice(0, opts.upTo ?? f.events.length);
  const msgs: ToView[] = [
    opts.context ?? { type: 'userMessage', text: f.request.params.message },
    { type: 'turnStart' },
    ...events.map((event): ToView => ({ type: 'event', event })),
  ];
  if (opts.upTo === undefined) {
    msgs.push({ type: 'turnEnd', result: f.result ?? undefined, cancelled: f.result?.stopReason === 'cancelled' });
  }
  return msgs;
}
