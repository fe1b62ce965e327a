// The extension's half of images in the chat: what a message's images
// change in the parley/chat request and in the transcript, and reading
// image files dropped from VS Code's explorer (the page gets their URIs,
// not their bytes) to hand them to the page as attachments.

import type { ChatParams, ChatImage } from './protocol';
import type { ChatHost } from './chatHost';
import { errorMessage } from './chatHost';

/** params with the message's images, when it has any. */
export function withImages(params: ChatParams, images: ChatImage[] | undefined): ChatParams {
  return images && images.length > 0 ? { ...params, images } : params;
}

/** The userMessage fields naming a message's images. */
export function imageNames(images: ChatImage[] | undefined): { images?: string[] } {
  return images && images.length > 0 ? { images: images.map((i, n) => i.name || `image ${n + 1}`) } : {};
}

/** The media type of image bytes by their signature, or undefined for anything else. */
export function sniffImage(b: Uint8Array): string | undefined {
  const at = (i: number, s: string) => [...s].every((c, j) => b[i + j] === c.charCodeAt(0));
  if (b.length >= 8 && b[0] === 0x89 && at(1, 'PNG')) {
    return 'image/png';
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    return 'image/jpeg';
  }
  if (b.length >= 6 && at(0, 'GIF8')) {
    return 'image/gif';
  }
  if (b.length >= 12 && at(0, 'RIFF') && at(8, 'WEBP')) {
    return 'image/webp';
  }
  return undefined;
}

/** An image file read for the page. */
export interface ReadImage {
  name: string;
  mediaType: string;
  data: string;
  size: number;
}

/**
 * Reads the files at uris (read(uri) gives the bytes) as images; a file
 * that is no image or cannot be read is reported in errors.
 */
export async function readImages(uris: string[], read: (uri: string) => Thenable<Uint8Array> | Promise<Uint8Array>): Promise<{ images: ReadImage[]; errors: string[] }> {
  const images: ReadImage[] = [];
  const errors: string[] = [];
  for (const uri of uris) {
    const name = decodeURIComponent(uri.replace(/[?#].*$/, '').split('/').pop() || uri);
    try {
      const bytes = await read(uri);
      const mediaType = sniffImage(bytes);
      if (!mediaType) {
        errors.push(`${name} is not an image parley can send (PNG, JPEG, GIF or WebP).`);
        continue;
      }
      images.push({ name, mediaType, data: Buffer.from(bytes).toString('base64'), size: bytes.length });
    } catch (e) {
      errors.push(`${name} could not be read: ${errorMessage(e)}`);
    }
  }
  return { images, errors };
}

/** Reads dropped workspace files and posts them to the page as attachments (errors as a notice). */
export async function attachUris(host: ChatHost, uris: string[], read: (uri: string) => Thenable<Uint8Array>): Promise<void> {
  const { images, errors } = await readImages(uris, read);
  if (images.length > 0) {
    host.view.post({ type: 'attachImages', images });
  }
  if (errors.length > 0) {
    host.view.post({ type: 'notice', message: errors.join(' ') });
  }
}
