import { describe, expect, it, vi } from 'vitest';
import { ChatController, type ChatHost } from '../../src/chatController';
import { attachUris, imageNames, readImages, sniffImage, withImages } from '../../src/imageMessages';
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  dataUrlOf,
  droppedUris,
  formatSize,
  pastedName,
  refuseImage,
  toChatImage,
} from '../../src/webview/imageAttach';
import type { ToView } from '../../src/webview/messages';
import { initialState, reduce, reduceAll } from '../../src/webview/state';
import { turnFixture } from '../fixtures';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('attaching images in the page', () => {
  it('takes PNG, JPEG, GIF and WebP within the limits', () => {
    expect(refuseImage({ name: 'shot.png', type: 'image/png', size: 1000 }, 0)).toBeUndefined();
    expect(refuseImage({ name: 'a.webp', type: 'image/webp', size: MAX_IMAGE_BYTES }, MAX_IMAGES - 1)).toBeUndefined();
    expect(refuseImage({ name: 'notes.txt', type: 'text/plain', size: 10 }, 0)).toBe('notes.txt is not an image parley can send (PNG, JPEG, GIF or WebP).');
    expect(refuseImage({ name: 'x.tiff', type: 'image/tiff', size: 10 }, 0)).toMatch(/not an image parley can send/);
    expect(refuseImage({ name: 'big.png', type: 'image/png', size: MAX_IMAGE_BYTES + 1 }, 0)).toBe('big.png is 20 MB; images up to 20 MB can be sent.');
    expect(refuseImage({ name: 'one.png', type: 'image/png', size: 10 }, MAX_IMAGES)).toBe('At most 10 images go with one message.');
  });

  it('splits a data URL into what parley/chat takes', () => {
    const a = { id: 1, name: 'shot.png', mediaType: 'image/png', dataUrl: dataUrlOf('image/png', 'iVBORw0KGgo='), size: 8 };
    expect(toChatImage(a)).toEqual({ mediaType: 'image/png', data: 'iVBORw0KGgo=', name: 'shot.png' });
  });

  it('names pasted images and sizes', () => {
    expect(pastedName('image/png', 1)).toBe('pasted-1.png');
    expect(pastedName('image/jpeg', 2)).toBe('pasted-2.jpg');
    expect(formatSize(1500)).toBe('1 KB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3 MB');
    expect(formatSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('finds the URIs of a drop from the explorer', () => {
    const data: Record<string, string> = { 'text/uri-list': 'file:///ws/a.png\r\n# comment\r\nfile:///ws/b.jpg\r\n' };
    expect(droppedUris(['text/uri-list'], (t) => data[t])).toEqual(['file:///ws/a.png', 'file:///ws/b.jpg']);
    expect(droppedUris(['Files'], () => '')).toEqual([]);
  });
});

describe('images in the extension', () => {
  it('recognises images by their bytes', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImage(new TextEncoder().encode('GIF89a'))).toBe('image/gif');
    expect(sniffImage(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImage(new TextEncoder().encode('package main'))).toBeUndefined();
  });

  it('reads dropped files for the page and reports the others', async () => {
    const files: Record<string, Uint8Array> = { 'file:///ws/shot.png': PNG, 'file:///ws/a.go': new TextEncoder().encode('package a') };
    const read = async (u: string) => {
      if (!(u in files)) {
        throw new Error('no such file');
      }
      return files[u];
    };
    const r = await readImages(['file:///ws/shot.png', 'file:///ws/a.go', 'file:///ws/gone%20now.png'], read);
    expect(r.images).toEqual([{ name: 'shot.png', mediaType: 'image/png', data: Buffer.from(PNG).toString('base64'), size: PNG.length }]);
    expect(r.errors).toEqual(['a.go is not an image parley can send (PNG, JPEG, GIF or WebP).', 'gone now.png could not be read: no such file']);

    const posted: ToView[] = [];
    await attachUris({ view: { post: (m: ToView) => posted.push(m) } } as unknown as ChatHost, ['file:///ws/shot.png', 'file:///ws/a.go'], read);
    expect(posted.map((m) => m.type)).toEqual(['attachImages', 'notice']);
  });

  it('adds images to the request and their names to the transcript', () => {
    const img = { mediaType: 'image/png', data: 'AAAA', name: 'shot.png' };
    expect(withImages({ message: 'hi' }, [img])).toEqual({ message: 'hi', images: [img] });
    expect(withImages({ message: 'hi' }, [])).toEqual({ message: 'hi' });
    expect(imageNames([img, { mediaType: 'image/png', data: 'BBBB' }])).toEqual({ images: ['shot.png', 'image 2'] });
    expect(imageNames(undefined)).toEqual({});
  });

  it('sends a message with images through parley/chat and shows their names', async () => {
    const calls: { method: string; params: any }[] = [];
    const f = turnFixture('text-answer');
    const posted: ToView[] = [];
    const host: ChatHost = {
      client: () => ({
        sendRequest: async <R>(method: string, params: unknown) => {
          calls.push({ method, params });
          return f.result as R;
        },
      }),
      view: { post: (m) => posted.push(m), visible: true, reveal: vi.fn() },
      editorContext: () => undefined,
      openFile: vi.fn(),
      openLink: vi.fn(),
      confirm: vi.fn(async () => true),
      askModal: vi.fn(async () => undefined),
      restartServer: vi.fn(),
      askCompactFocus: vi.fn(async () => ''),
    };
    const chat = new ChatController(host);
    chat.setServerState('running');
    const img = { mediaType: 'image/png', data: 'iVBORw0KGgo=', name: 'shot.png' };
    await chat.onMessage({ type: 'send', text: 'what is this?', includeContext: false, images: [img] });
    expect(calls[0]).toEqual({ method: 'parley/chat', params: { message: 'what is this?', images: [img] } });
    const s = reduceAll(posted);
    expect(s.turns[0].user).toMatchObject({ text: 'what is this?', images: ['shot.png'] });
  });

  it('names the images of a loaded session under their messages', () => {
    const s = reduce(initialState(), {
      type: 'history',
      session: {
        id: 's1', created: '', updated: '', title: 'what is this?', turns: 2,
        messages: [
          { role: 'user', blocks: [{ kind: 'text', text: 'what is this?' }, { kind: 'image', name: 'shot.png' }] },
          { role: 'assistant', blocks: [{ kind: 'text', text: 'a chart' }] },
          { role: 'user', blocks: [{ kind: 'image' }] },
        ],
      },
    });
    expect(s.turns.map((t) => t.user)).toEqual([
      { text: 'what is this?', context: undefined, images: ['shot.png'] },
      { text: '', context: undefined, images: ['image'] },
    ]);
  });
});
