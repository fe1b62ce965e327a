// Images attached to the next message: pasted on the chat input (a
// screenshot on the clipboard) or dropped on it (image files; from VS
// Code's explorer they come as URIs the extension reads), shown as
// thumbnail chips with a remove button above the input, and taken by
// send() as parley/chat's images. The checks are pure functions (the unit
// tests use them); ImageAttachments binds them to the page. The server
// reads, downscales and checks each image against the model; here only
// what is plainly no image, too large to send or too many is refused.

import type { ChatImage } from '../protocol';
import { h, icon } from './dom';

/** The media types parley reads (the server checks the content again). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** The largest image file sent, in bytes (the server reads up to 32 MB). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** The most images one message takes (the server takes 20). */
export const MAX_IMAGES = 10;

/** An attached image as the page holds it. */
export interface Attachment {
  id: number;
  name: string;
  mediaType: string;
  /** data:MEDIATYPE;base64,DATA, also the thumbnail's src. */
  dataUrl: string;
  size: number;
}

/** Why a file cannot be attached when attached images are already there, or undefined when it can. */
export function refuseImage(file: { name: string; type: string; size: number }, attached: number): string | undefined {
  if (!IMAGE_TYPES.includes(file.type)) {
    return `${file.name || 'The pasted item'} is not an image parley can send (PNG, JPEG, GIF or WebP).`;
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `${file.name} is ${formatSize(file.size)}; images up to ${formatSize(MAX_IMAGE_BYTES)} can be sent.`;
  }
  if (attached >= MAX_IMAGES) {
    return `At most ${MAX_IMAGES} images go with one message.`;
  }
  return undefined;
}

/** The image of an attachment as parley/chat takes it: the data URL split into media type and base64. */
export function toChatImage(a: Attachment): ChatImage {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(a.dataUrl);
  return { mediaType: m ? m[1] : a.mediaType, data: m ? m[2] : '', name: a.name };
}

/** A data URL of base64 data (an image the extension read). */
export function dataUrlOf(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** The name of the n-th pasted image: a clipboard's image has none worth showing ("image.png"). */
export function pastedName(type: string, n: number): string {
  const ext = type === 'image/jpeg' ? 'jpg' : type.replace(/^image\//, '') || 'png';
  return `pasted-${n}.${ext}`;
}

/** "980 KB", "1.5 MB". */
export function formatSize(n: number): string {
  if (n < 1024 * 1024) {
    return `${Math.max(1, Math.round(n / 1024))} KB`;
  }
  return `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** The URIs of a drop from VS Code's explorer or editor tabs (no files then). */
export function droppedUris(types: readonly string[], get: (type: string) => string): string[] {
  for (const t of ['application/vnd.code.uri-list', 'text/uri-list']) {
    if (types.includes(t)) {
      return get(t)
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter((s) => s !== '' && !s.startsWith('#'));
    }
  }
  return [];
}

function readDataUrl(f: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'));
    r.readAsDataURL(f);
  });
}

/** The page's attachments: the chips above the input, filled by paste and drop. */
export class ImageAttachments {
  private list: Attachment[] = [];
  private nextId = 1;
  private pasted = 0;

  /**
   * input receives pastes and drops (with the composer around it, drop);
   * box shows the chips; onError shows why an image was refused; onUris
   * asks the extension to read dropped workspace files.
   */
  constructor(
    input: HTMLElement,
    dropZone: HTMLElement,
    private readonly box: HTMLElement,
    private readonly onError: (message: string) => void,
    private readonly onUris: (uris: string[]) => void,
  ) {
    input.addEventListener('paste', (e) => this.paste(e as ClipboardEvent));
    dropZone.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].some((t) => t === 'Files' || t.endsWith('uri-list'))) {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }
    });
    dropZone.addEventListener('drop', (e) => this.drop(e));
    box.addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest('button[data-attachment]') as HTMLElement | null;
      if (b) {
        this.remove(Number(b.dataset.attachment));
      }
    });
    this.render();
  }

  /** Whether images are attached. */
  has(): boolean {
    return this.list.length > 0;
  }

  /** The attached images, for the message being sent; the chips go. */
  take(): { images: ChatImage[]; names: string[] } {
    const taken = this.list;
    this.list = [];
    this.render();
    return { images: taken.map(toChatImage), names: taken.map((a) => a.name) };
  }

  remove(id: number): void {
    this.list = this.list.filter((a) => a.id !== id);
    this.render();
  }

  /** Adds files; those refused are reported, the others attached. */
  async addFiles(files: File[], pasted = false): Promise<void> {
    for (const f of files) {
      const name = pasted ? pastedName(f.type, ++this.pasted) : f.name;
      const why = refuseImage({ name, type: f.type, size: f.size }, this.list.length);
      if (why) {
        this.onError(why);
        continue;
      }
      try {
        this.attach(name, f.type, await readDataUrl(f), f.size);
      } catch (e) {
        this.onError(`${name} could not be read: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /** Adds an image the extension read (base64 data). */
  addData(name: string, mediaType: string, data: string, size: number): void {
    const why = refuseImage({ name, type: mediaType, size }, this.list.length);
    if (why) {
      this.onError(why);
      return;
    }
    this.attach(name, mediaType, dataUrlOf(mediaType, data), size);
  }

  private attach(name: string, mediaType: string, dataUrl: string, size: number): void {
    this.list = [...this.list, { id: this.nextId++, name, mediaType, dataUrl, size }];
    this.render();
  }

  private paste(e: ClipboardEvent): void {
    const files = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
    if (files.length === 0) {
      return; // text: the textarea takes it
    }
    e.preventDefault();
    void this.addFiles(files, true);
  }

  private drop(e: DragEvent): void {
    const dt = e.dataTransfer;
    if (!dt) {
      return;
    }
    const files = [...dt.files];
    const uris = files.length === 0 ? droppedUris([...dt.types], (t) => dt.getData(t)) : [];
    if (files.length === 0 && uris.length === 0) {
      return;
    }
    e.preventDefault();
    if (files.length > 0) {
      void this.addFiles(files);
    } else {
      this.onUris(uris);
    }
  }

  private render(): void {
    this.box.hidden = this.list.length === 0;
    this.box.replaceChildren(
      ...this.list.map((a) =>
        h(
          'span',
          { class: 'image-chip', role: 'listitem', title: `${a.name} · ${formatSize(a.size)}`, 'data-attachment': String(a.id) },
          h('img', { src: a.dataUrl, alt: a.name }),
          h('span', { class: 'image-name' }, a.name),
          h('button', { class: 'icon image-remove', 'data-attachment': String(a.id), title: `Remove ${a.name}`, 'aria-label': `Remove ${a.name}` }, icon('close')),
        ),
      ),
    );
  }
}

/** The names of a sent message's images, drawn under its text in the transcript. */
export function renderImageNames(names: string[]): HTMLElement {
  return h('div', { class: 'user-images', 'aria-label': 'Images' }, ...names.map((n) => h('span', { class: 'image-chip sent' }, n)));
}
