// Images pasted and dropped on the chat input, in headless Chromium: a
// thumbnail chip per image with a remove button, refused files reported,
// and the images sent with the message.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { type ChatPage, type PageServer, hasChromium, launch, mustRunChromium, openChat, startPageServer } from './harness';

const run = hasChromium || mustRunChromium;

/** A 1x1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe.skipIf(!run)('images in the chat page', () => {
  let server: PageServer;
  let browser: Browser;
  let chat: ChatPage;

  beforeAll(async () => {
    server = await startPageServer();
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    chat = await openChat(browser, server.origin);
    return async () => {
      expect(chat.problems).toEqual([]);
      await chat.page.context().close();
    };
  });

  it('attaches pasted and dropped images as chips, removes one, and sends the rest with the message', async () => {
    const { page } = chat;
    await chat.feed([{ type: 'server', state: 'running' }]);
    // A paste of a screenshot, then a drop of an image file and a text file.
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const input = document.getElementById('input')!;
      const paste = new DataTransfer();
      paste.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: paste, bubbles: true, cancelable: true }));
      const drop = new DataTransfer();
      drop.items.add(new File([bytes], 'diagram.png', { type: 'image/png' }));
      drop.items.add(new File(['package a'], 'a.go', { type: 'text/x-go' }));
      input.dispatchEvent(new DragEvent('drop', { dataTransfer: drop, bubbles: true, cancelable: true }));
    }, PNG_BASE64);
    const chips = page.locator('#attachments .image-chip');
    await expect.poll(() => chips.count()).toBe(2);
    await expect(chips.allTextContents()).resolves.toEqual(['pasted-1.png', 'diagram.png']);
    await expect(page.locator('#attachments img').first().getAttribute('src')).resolves.toBe(`data:image/png;base64,${PNG_BASE64}`);
    await expect.poll(() => page.locator('#notice-text').textContent()).toBe('a.go is not an image parley can send (PNG, JPEG, GIF or WebP).');

    await page.locator('#attachments button[aria-label="Remove pasted-1.png"]').click();
    await expect.poll(() => chips.count()).toBe(1);

    await chat.clearPosted();
    await page.locator('#input').fill('what does this show?');
    await page.locator('#input').press('Enter');
    expect(await chat.posted()).toEqual([
      {
        type: 'send',
        text: 'what does this show?',
        includeContext: true,
        images: [{ mediaType: 'image/png', data: PNG_BASE64, name: 'diagram.png' }],
      },
    ]);
    await expect.poll(() => chips.count()).toBe(0);
    await expect(page.locator('#attachments').isHidden()).resolves.toBe(true);
  });

  it('sends images without text, and attaches files the extension read for a drop from the explorer', async () => {
    const { page } = chat;
    await chat.feed([{ type: 'server', state: 'running' }]);
    await page.evaluate(() => {
      const drop = new DataTransfer();
      drop.setData('text/uri-list', 'file:///ws/shot.png');
      document.getElementById('input')!.dispatchEvent(new DragEvent('drop', { dataTransfer: drop, bubbles: true, cancelable: true }));
    });
    expect(await chat.posted()).toContainEqual({ type: 'attachUris', uris: ['file:///ws/shot.png'] });
    await chat.feed([{ type: 'attachImages', images: [{ name: 'shot.png', mediaType: 'image/png', data: PNG_BASE64, size: 70 }] }]);
    await expect.poll(() => page.locator('#attachments .image-chip').count()).toBe(1);
    await chat.clearPosted();
    await page.locator('#send').click();
    expect(await chat.posted()).toEqual([
      { type: 'send', text: '', includeContext: true, images: [{ mediaType: 'image/png', data: PNG_BASE64, name: 'shot.png' }] },
    ]);
    await chat.feed([{ type: 'userMessage', text: '', images: ['shot.png'] }]);
    await expect(page.locator('.user .user-images').textContent()).resolves.toBe('shot.png');
  });
});
