// Inline SVG icons (16×16, currentColor): no icon font or emoji font needed,
// and nothing for the CSP to allow.

const svg = (body: string) =>
  `<svg class="icon-svg" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

export const ICONS = {
  plus: svg('<path d="M8 2.5v11M2.5 8h11"/>'),
  history: svg('<path d="M2.5 4h11M2.5 8h11M2.5 12h11"/>'),
  clip: svg('<path d="M10.8 5.2 6 10a1.3 1.3 0 0 0 1.9 1.9l5.2-5.2a2.8 2.8 0 0 0-4-4L3.8 8a4.2 4.2 0 0 0 6 6l4-4"/>'),
  trash: svg('<path d="M2.5 4.5h11M6 4.5V2.8h4v1.7M4 4.5l.8 9h6.4l.8-9M6.8 7v4.5M9.2 7v4.5"/>'),
  compact: svg('<path d="M8 1.5v4.5M5.5 3.5 8 6l2.5-2.5M8 14.5V10M5.5 12.5 8 10l2.5 2.5M2.5 8h11"/>'),
  close: svg('<path d="M4 4l8 8M12 4l-8 8"/>'),
} as const;

export type IconName = keyof typeof ICONS;
