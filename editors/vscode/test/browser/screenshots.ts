// Renders the chat view with the recorded fixtures and saves PNGs to
// media/screenshots/ (linked from the README). Run with npm run screenshots.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { compactFixture, sessionsFixture, turnFixture } from '../fixtures';
import { type ChatPage, launch, openChat, root, startPageServer, typedTurn } from './harness';

const cart = 'file:///home/dev/shop/cart/cart.go';
const ctx = { label: 'cart/cart.go:10-17', uri: cart };

export async function main(): Promise<string[]> {
  const outDir = path.join(root, 'media', 'screenshots');
  fs.mkdirSync(outDir, { recursive: true });
  const server = await startPageServer();
  const browser = await launch();
  const written: string[] = [];
  const shot = async (chat: ChatPage, name: string) => {
    const file = path.join(outDir, name);
    await chat.page.screenshot({ path: file });
    if (chat.problems.length > 0) {
      throw new Error(`${name}: ${chat.problems.join('; ')}`);
    }
    written.push(path.relative(root, file));
    await chat.page.context().close();
  };
  try {
    const answer = turnFixture('text-answer');
    const edit = turnFixture('tool-edit');
    const cancelled = turnFixture('cancelled');
    const sessions = sessionsFixture();

    // 1. A markdown answer about the selection.
    let chat = await openChat(browser, server.origin);
    await chat.feed([
      { type: 'context', context: ctx, include: true },
      { type: 'sessions', sessions: sessions.sessions.sessions, current: answer.result!.session },
      ...typedTurn(answer, { context: { type: 'userMessage', text: answer.request.params.message, context: ctx } }),
    ]);
    await shot(chat, 'chat-answer.png');

    // 2. Tool calls (one opened), the applied edit and the usage.
    chat = await openChat(browser, server.origin);
    await chat.feed([
      { type: 'context', context: { label: 'cart/cart.go', uri: cart }, include: true },
      { type: 'sessions', sessions: sessions.sessions.sessions, current: answer.result!.session },
      ...typedTurn(edit, { context: { type: 'userMessage', text: edit.request.params.message, context: { label: 'cart/cart.go', uri: cart } } }),
    ]);
    await chat.page.locator('details.tool').nth(1).locator('summary').click();
    await shot(chat, 'chat-tools.png');

    // 3. A running turn waiting for an approval, with the Stop button.
    chat = await openChat(browser, server.origin);
    const a = cancelled.approvals![0].request;
    const toolCall = cancelled.events.findIndex((e) => e.kind === 'toolCall');
    await chat.feed([
      { type: 'context', context: { label: 'cart/cart.go', uri: cart }, include: true },
      ...typedTurn(cancelled, { upTo: toolCall + 1 }),
      { type: 'approval', id: 1, message: a.message, actions: a.actions.map((x) => x.title) },
    ]);
    await shot(chat, 'chat-approval.png');

    // 4. The session list over a loaded session.
    chat = await openChat(browser, server.origin);
    await chat.feed([
      { type: 'history', session: sessions.history },
      { type: 'sessions', sessions: sessions.sessions.sessions, current: sessions.history.id },
      { type: 'showSessions' },
      { type: 'context', context: { label: 'cart/cart.go', uri: cart }, include: true },
    ]);
    await shot(chat, 'chat-sessions.png');

    // 5. A conversation compacted on request, the entry opened.
    chat = await openChat(browser, server.origin);
    await chat.feed([
      { type: 'context', context: { label: 'cart/cart.go', uri: cart }, include: true },
      { type: 'sessions', sessions: sessions.sessions.sessions, current: answer.result!.session },
      ...typedTurn(answer, { context: { type: 'userMessage', text: answer.request.params.message, context: ctx } }),
      ...typedTurn(edit, { context: { type: 'userMessage', text: edit.request.params.message, context: { label: 'cart/cart.go', uri: cart } } }),
      ...compactFixture().events.map((event) => ({ type: 'event' as const, event })),
    ]);
    await chat.page.locator('details.compaction summary').click();
    await shot(chat, 'chat-compaction.png');
  } finally {
    await browser.close();
    await server.close();
  }
  return written;
}
