// The chat page's DOM helpers: h() builds elements, icon() draws one of
// our constant icons, renderMarkdown() turns model text into sanitized
// HTML. Nothing here reads the page's state.

import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';
import { ICONS, type IconName } from './icons';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

/** Markdown to sanitized HTML. html:false already escapes raw HTML; DOMPurify is the second line. */
export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.render(text), {
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'iframe'],
    FORBID_ATTR: ['style'],
  });
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined) {
      el.setAttribute(k, v);
    }
  }
  for (const c of children) {
    if (c !== undefined && c !== false) {
      el.append(c);
    }
  }
  return el;
}

export function icon(name: IconName): HTMLElement {
  const span = h('span', { class: `icon-${name}` });
  span.innerHTML = ICONS[name]; // a constant of ours, not data
  return span;
}
