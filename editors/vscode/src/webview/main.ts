// The chat webview's page: renders ViewState into the DOM and posts the
// user's actions to the extension. All state changes go through reduce()
// (state.ts); this file only draws. It runs in VS Code's webview and, for
// the browser tests, in plain Chromium with acquireVsCodeApi stubbed.

import type { FromView, ToView } from './messages';
import { h, icon } from './dom';
import { turnStopText } from './hookText';
import { renderItem } from './items';
import { ImageAttachments, renderImageNames } from './imageAttach';
import { drawMentions } from './mentionChips';
import { MentionMenu } from './mentionMenu';
import { PromptMenu } from './promptMenu';
import { type Action, type Item, type Turn, type ViewState, initialState, reduce } from './state';
import { usageText } from './present';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}

declare global {
  interface Window {
    acquireVsCodeApi?: () => VsCodeApi;
    /** For tests: the current state and a way to inject messages. */
    parley?: { state(): ViewState; dispatch(a: Action): void; rendered(): number };
  }
}

const vscode: VsCodeApi = window.acquireVsCodeApi
  ? window.acquireVsCodeApi()
  : { postMessage: (m) => console.log('postMessage', m), getState: () => undefined, setState: () => undefined };

function post(m: FromView): void {
  vscode.postMessage(m);
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export { renderMarkdown } from './dom';

// ---- state ----

let state: ViewState = initialState();
let renderCount = 0;
let scheduled = false;

function dispatch(a: Action): void {
  state = reduce(state, a);
  schedule();
}

function schedule(): void {
  if (scheduled) {
    return;
  }
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    render();
  });
}

// ---- rendering ----

/** What was drawn for each turn, to redraw only what changed. */
const drawnTurns = new Map<number, { turn: Turn; el: HTMLElement; items: { item: Item; el: HTMLElement }[] }>();

function renderTurnShell(t: Turn): HTMLElement {
  const el = h('article', { class: t.between ? 'turn between' : 'turn', 'data-turn-key': String(t.key) });
  if (t.user) {
    const u = h('div', { class: 'user' }, h('div', { class: 'user-text' }, t.user.text));
    if (t.user.context) {
      u.append(h('div', { class: 'user-context', title: t.user.context.uri || t.user.context.label }, icon('clip'), t.user.context.label));
    }
    if (t.user.images?.length) {
      u.append(renderImageNames(t.user.images));
    }
    el.append(u);
  }
  el.append(h('div', { class: 'items' }));
  el.append(h('div', { class: 'turn-footer' }));
  return el;
}

function renderFooter(t: Turn, footer: HTMLElement, isLast: boolean): void {
  footer.replaceChildren();
  if (!t.done && isLast && state.running) {
    footer.append(h('div', { class: 'working' }, h('span', { class: 'spinner' }), 'Working…'));
  }
  if (t.error) {
    footer.append(h('div', { class: 'turn-error', role: 'alert' }, t.error));
  }
  const reason = turnStopText(t);
  const usage = usageText(t.usage);
  if (reason || (t.done && usage)) {
    footer.append(
      h(
        'div',
        { class: 'turn-meta' },
        reason ? h('span', { class: `stop stop-${t.stopReason}` }, reason) : undefined,
        t.done && usage ? h('span', { class: 'usage' }, usage) : undefined,
      ),
    );
  }
}

function renderTranscript(): void {
  const root = $('transcript');
  const keep = new Set(state.turns.map((t) => t.key));
  for (const [key, d] of drawnTurns) {
    if (!keep.has(key)) {
      d.el.remove();
      drawnTurns.delete(key);
    }
  }
  state.turns.forEach((t, i) => {
    let d = drawnTurns.get(t.key);
    const isLast = i === state.turns.length - 1;
    if (!d) {
      d = { turn: t, el: renderTurnShell(t), items: [] };
      drawnTurns.set(t.key, d);
      root.append(d.el);
    } else if (d.turn === t && !isLast) {
      return;
    }
    d.turn = t;
    drawMentions(d.el, t.mentions);
    const list = d.el.querySelector('.items') as HTMLElement;
    t.items.forEach((item, j) => {
      const prev = d!.items[j];
      if (prev && prev.item === item) {
        return;
      }
      const el = renderItem(item, prev?.el);
      if (prev) {
        prev.el.replaceWith(el);
      } else {
        list.append(el);
      }
      d!.items[j] = { item, el };
    });
    while (d.items.length > t.items.length) {
      d.items.pop()!.el.remove();
    }
    renderFooter(t, d.el.querySelector('.turn-footer') as HTMLElement, isLast);
  });
  $('empty').hidden = state.turns.length > 0;
  let compacting = document.getElementById('compacting');
  if (state.compacting && !compacting) {
    compacting = h('div', { id: 'compacting', class: 'working' }, h('span', { class: 'spinner' }), 'Compacting the conversation…');
  }
  if (compacting) {
    if (state.compacting) {
      root.append(compacting); // stays last
    } else {
      compacting.remove();
    }
  }
}

function relTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) {
    return '';
  }
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) {
    return 'just now';
  }
  if (s < 3600) {
    return `${Math.floor(s / 60)} min ago`;
  }
  if (s < 86400) {
    return `${Math.floor(s / 3600)} h ago`;
  }
  return new Date(t).toISOString().slice(0, 10);
}

function renderSessions(): void {
  const panel = $('sessions');
  panel.hidden = !state.sessionsOpen;
  $('history').setAttribute('aria-expanded', String(state.sessionsOpen));
  if (!state.sessionsOpen) {
    return;
  }
  const list = h('ul', { class: 'session-list' });
  if (state.sessions.length === 0) {
    list.append(h('li', { class: 'session-empty' }, 'No saved sessions yet.'));
  }
  for (const s of state.sessions) {
    const li = h(
      'li',
      { class: `session${s.id === state.session ? ' current' : ''}`, 'data-session': s.id },
      h(
        'button',
        { class: 'session-open', 'data-session': s.id, title: s.id },
        h('span', { class: 'session-title' }, s.title || s.id),
        h('span', { class: 'session-meta' }, `${relTime(s.updated)} · ${s.turns} turn${s.turns === 1 ? '' : 's'}${s.running ? ' · running' : ''}`),
      ),
      h('button', { class: 'session-delete icon', 'data-session': s.id, title: 'Delete session', 'aria-label': `Delete ${s.title}` }, icon('trash')),
    );
    list.append(li);
  }
  panel.replaceChildren(list);
}

function renderControls(): void {
  $('title').textContent = state.title || (state.session ? state.session : 'New session');
  const send = $<HTMLButtonElement>('send');
  const stop = $<HTMLButtonElement>('stop');
  send.hidden = state.running;
  stop.hidden = !state.running;
  send.disabled = state.server !== 'running' || state.compacting;
  $<HTMLButtonElement>('compact').disabled = !state.session || state.running || state.compacting || state.server !== 'running';

  const ctx = $('context');
  const c = state.context;
  ctx.hidden = !c;
  if (c) {
    $<HTMLInputElement>('include-context').checked = state.includeContext || !!c.pinned;
    $<HTMLInputElement>('include-context').disabled = !!c.pinned;
    const diag = c.diagnostics ? ` · ${c.diagnostics} diagnostic${c.diagnostics === 1 ? '' : 's'}` : '';
    $('context-label').textContent = `${c.label}${diag}`;
    $('context-label').title = c.uri;
    $('unpin').hidden = !c.pinned;
  }

  const notice = $('notice');
  notice.hidden = !state.notice;
  $('notice-text').textContent = state.notice ?? '';

  const server = $('server');
  server.hidden = state.server === 'running';
  $('server-text').textContent =
    state.server === 'starting' ? 'Starting the parley server…' : `The parley server is not running${state.serverMessage ? `: ${state.serverMessage}` : ''}.`;
  $('restart').hidden = state.server !== 'stopped';

  const approvals = $('approvals');
  approvals.replaceChildren(
    ...state.approvals.map((a) =>
      h(
        'div',
        { class: 'approval', role: 'alertdialog', 'data-approval': String(a.id) },
        h('div', { class: 'approval-message' }, a.message),
        h(
          'div',
          { class: 'approval-actions' },
          ...a.actions.map((t) => h('button', { class: t === 'Deny' ? 'secondary' : '', 'data-approval': String(a.id), 'data-answer': t }, t)),
        ),
      ),
    ),
  );
}

function render(): void {
  const main = $('transcript');
  const atBottom = main.scrollHeight - main.scrollTop - main.clientHeight < 40;
  renderTranscript();
  renderSessions();
  renderControls();
  if (atBottom) {
    main.scrollTop = main.scrollHeight;
  }
  renderCount++;
  document.body.dataset.rendered = String(renderCount);
  document.body.dataset.running = String(state.running);
}

// ---- input ----

let promptMenu: PromptMenu | undefined;
let mentionMenu: MentionMenu | undefined;
let attachments: ImageAttachments | undefined;

function send(): void {
  const input = $<HTMLTextAreaElement>('input');
  const text = input.value.trim();
  if ((text === '' && !attachments?.has()) || state.running || state.compacting || state.server !== 'running') {
    return;
  }
  input.value = '';
  const mentions = mentionMenu?.take(text) ?? [];
  const images = attachments?.take().images ?? [];
  post({ type: 'send', text, includeContext: state.includeContext, ...(mentions.length > 0 ? { mentions } : {}), ...(images.length > 0 ? { images } : {}) });
}

function wire(): void {
  $('send').addEventListener('click', send);
  $('stop').addEventListener('click', () => post({ type: 'stop' }));
  $('new').addEventListener('click', () => post({ type: 'newSession' }));
  $('compact').addEventListener('click', () => post({ type: 'compact' }));
  $('history').addEventListener('click', () => {
    const open = !state.sessionsOpen;
    dispatch({ type: 'toggleSessions', open });
    if (open) {
      post({ type: 'listSessions' });
    }
  });
  $('restart').addEventListener('click', () => post({ type: 'restartServer' }));
  $('notice-close').addEventListener('click', () => dispatch({ type: 'dismissNotice' }));
  $('unpin').addEventListener('click', () => post({ type: 'unpinContext' }));
  $<HTMLInputElement>('include-context').addEventListener('change', (e) => {
    const include = (e.target as HTMLInputElement).checked;
    dispatch({ type: 'context', context: state.context, include });
    post({ type: 'includeContext', include });
  });
  const input = $<HTMLTextAreaElement>('input');
  const menu = new PromptMenu(input, $('prompt-menu'), () => post({ type: 'listPromptCommands' }));
  promptMenu = menu;
  const mentionsMenu = new MentionMenu(input, $('mention-menu'), (id, query) => post({ type: 'mentionQuery', id, query }));
  mentionMenu = mentionsMenu;
  attachments = new ImageAttachments(input, $('composer'), $('attachments'), (message) => dispatch({ type: 'notice', message }), (uris) => post({ type: 'attachUris', uris }));
  input.addEventListener('keydown', (e) => {
    if (menu.key(e) || mentionsMenu.key(e)) {
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
    } else if (e.key === 'Escape' && state.running) {
      post({ type: 'stop' });
    }
  });
  document.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const file = target.closest('a.file') as HTMLElement | null;
    if (file) {
      e.preventDefault();
      post({ type: 'openFile', uri: file.dataset.uri ?? '' });
      return;
    }
    const link = target.closest('.md a[href]') as HTMLAnchorElement | null;
    if (link) {
      e.preventDefault();
      post({ type: 'openLink', href: link.getAttribute('href') ?? '' });
      return;
    }
    const open = target.closest('button.session-open') as HTMLElement | null;
    if (open) {
      post({ type: 'openSession', id: open.dataset.session ?? '' });
      return;
    }
    const del = target.closest('button.session-delete') as HTMLElement | null;
    if (del) {
      post({ type: 'deleteSession', id: del.dataset.session ?? '' });
      return;
    }
    const ans = target.closest('button[data-answer]') as HTMLElement | null;
    if (ans) {
      const id = Number(ans.dataset.approval);
      post({ type: 'approve', id, answer: ans.dataset.answer ?? null });
      dispatch({ type: 'approvalDone', id });
    }
  });
  window.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as ToView;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') {
      return;
    }
    if (m.type === 'mentionCandidates') {
      mentionMenu?.setItems(m.id, m.items);
      return;
    }
    if (m.type === 'attachImages') {
      m.images.forEach((i) => attachments?.addData(i.name, i.mediaType, i.data, i.size));
      return;
    }
    if (m.type === 'promptCommands') {
      promptMenu?.setCommands(m.commands);
      return;
    }
    if (m.type === 'focusInput') {
      const input = $<HTMLTextAreaElement>('input');
      if (m.text !== undefined) {
        input.value = m.text;
      }
      input.focus();
    }
    dispatch(m);
  });
}

window.parley = { state: () => state, dispatch, rendered: () => renderCount };
wire();
render();
post({ type: 'ready' });
