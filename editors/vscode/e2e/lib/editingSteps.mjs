// The inline completion and next-edit steps of workbench.test.mjs, in the
// same code-server session (they run after the chat steps, in this
// order). t holds the session: t.page and t.model are read when a step
// runs, after the suite's before() has set them; t.step, t.shot and
// t.goToLine are the suite's; t.tmp is its scratch directory (parley's
// data directory is t.tmp/data).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WAIT, activeTab, editorText, openFile, runCommand, statusBar } from './workbench.mjs';

export function editingSteps(t) {
  // ---- inline completion ----

  // The editor's text without the ghost text VS Code draws into its lines.
  const bufferText = () =>
    t.page.locator('.editor-group-container.active .monaco-editor .view-lines').evaluate((el) => {
      const copy = el.cloneNode(true);
      for (const g of copy.querySelectorAll('[class*="ghost-text"]')) {
        g.remove();
      }
      document.body.appendChild(copy);
      const t = copy.innerText;
      copy.remove();
      return t.replace(/\u00a0/g, ' ');
    });
  const ghost = () => t.page.locator('.editor-group-container.active .monaco-editor [class*="ghost-text-decoration"]');
  const ghostText = async () => (await ghost().allInnerTexts()).join('').replace(/\u00a0/g, ' ');
  // What the server counted (agent/complete's completions.jsonl in the data directory).
  const counted = () => {
    const out = [];
    const walk = (dir) => {
      for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const f = path.join(dir, e.name);
        if (e.isDirectory()) {
          walk(f);
        } else if (e.name === 'completions.jsonl') {
          out.push(...fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)));
        }
      }
    };
    walk(path.join(t.tmp, 'data'));
    return out;
  };
  const endOfFile = async () => {
    await t.page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await t.page.keyboard.press('Control+End');
  };
  const waitFor = async (what, cond) => {
    const deadline = Date.now() + WAIT;
    for (;;) {
      const v = await cond();
      if (v) {
        return v;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await t.page.waitForTimeout(100);
    }
  };

  t.step('ghost text from the completion model: Tab inserts it, one Ctrl+Z takes it out', async () => {
    await openFile(t.page, 'cart/fee.go');
    await statusBar(t.page).getByText('completion on').waitFor({ timeout: WAIT });
    const answer = 'charge() int { return 2 * Fee() }';
    t.model.scriptCompletions((body) => ({ text: body.prompt?.endsWith('func Sur') ? answer : '' }));
    await endOfFile();
    await t.page.keyboard.press('Enter');
    await t.page.keyboard.press('Enter');
    await t.page.keyboard.type('func Sur');
    await waitFor('the ghost text', async () => (await ghostText()).includes('charge() int'));
    assert.match(await bufferText(), /^func Sur$/m);
    const sent = t.model.completions().filter((r) => r.answered && r.body.prompt.endsWith('func Sur'));
    assert.ok(sent.length >= 1, 'the model was not asked for the line');
    assert.equal(sent.at(-1).body.model, 'fake-fim');
    assert.match(sent.at(-1).body.prompt, /func Discount\(\) int/);
    if (process.env.PARLEY_SCREENSHOT_DIR) {
      // The top of the editor: the tabs, the file and the ghost text.
      const box = await t.page.locator('.editor-group-container.active').boundingBox();
      fs.mkdirSync(process.env.PARLEY_SCREENSHOT_DIR, { recursive: true });
      await t.page.screenshot({
        path: path.join(process.env.PARLEY_SCREENSHOT_DIR, 'vscode-ghost-text.png'),
        clip: { x: box.x, y: box.y, width: Math.min(box.width, 760), height: Math.min(box.height, 230) },
      });
    }
    await t.shot('ghost-text.png');
    // code-server grants the extension the inlineCompletionsAdditions
    // proposal: the server hears the item was shown.
    const id = await waitFor('the shown event', () => counted().find((e) => e.kind === 'shown')?.id);
    await t.page.keyboard.press('Tab');
    await waitFor('the accepted completion', async () => /^func Surcharge\(\) int \{ return 2 \* Fee\(\) \}$/m.test(await bufferText()));
    // The item's command reached the server.
    await waitFor('the accepted event', () => counted().some((e) => e.kind === 'accepted' && e.id === id));
    // One undo step takes the whole completion out, and only it.
    await t.page.keyboard.press('Control+Z');
    await waitFor('the undone completion', async () => /^func Sur$/m.test(await bufferText()));
    assert.doesNotMatch(await bufferText(), /Surcharge/);
    await t.page.keyboard.press('Escape');
    // What the model was given for it, in a read-only markdown document.
    await runCommand(t.page, 'parley: Show Completion Context');
    await activeTab(t.page, `completion-${String(id).replace(/[^\w.-]+/g, '_')}.md`).waitFor({ timeout: WAIT });
    await waitFor('the context document', async () => /# Context of completion/.test(await editorText(t.page)));
    assert.match(await editorText(t.page), /## Prefix/);
  });

  t.step('the status bar switch: off asks nothing, on asks again', async () => {
    await openFile(t.page, 'cart/fee.go');
    t.model.scriptCompletions(() => ({ text: '' }));
    await statusBar(t.page).getByText('completion on').click();
    await t.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Turn off in this workspace' }).click({ timeout: WAIT });
    await statusBar(t.page).getByText('completion off').waitFor({ timeout: WAIT });
    await endOfFile();
    await t.page.keyboard.press('Enter');
    // Slower than the server's debounce: were anything asked, it would reach the t.model.
    const typedOff = 'const limitOff';
    await t.page.keyboard.type(typedOff, { delay: 150 });
    await runCommand(t.page, 'parley: Turn Inline Completion On/Off');
    await statusBar(t.page).getByText('completion on').waitFor({ timeout: WAIT });
    await t.page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await t.page.keyboard.press('End');
    await t.page.keyboard.type('On');
    await waitFor('the request once on', () => t.model.completions().some((r) => r.body.prompt?.endsWith('const limitOffOn')));
    // (The whole of typedOff is left out: turning on may ask at the cursor.)
    const offPrefixes = [...typedOff].map((_, i) => typedOff.slice(0, i + 1)).slice(0, -1);
    const whileOff = t.model.completions().filter((r) => offPrefixes.some((p) => r.body.prompt?.endsWith(`\n${p}`)));
    assert.deepEqual(whileOff.map((r) => r.body.prompt.slice(-16)), [], 'requests were sent while completion was off');
  });

  t.step('a request superseded by more typing never gets the model’s answer', async () => {
    await openFile(t.page, 'cart/fee.go');
    // A slow model: the first request is still waiting when typing goes on.
    t.model.scriptCompletions((body) => ({ text: body.prompt?.endsWith('var tax') ? ' = Fee() * 3' : '', delay: 1500 }));
    const before = t.model.completions().length;
    await endOfFile();
    await t.page.keyboard.press('Enter');
    await t.page.keyboard.type('var t');
    await waitFor('the request for "var t"', () => t.model.completions().slice(before).some((r) => r.body.prompt?.endsWith('var t')));
    await t.page.keyboard.type('ax');
    await waitFor('the ghost text', async () => (await ghostText()).includes('= Fee() * 3'));
    const asked = t.model.completions().slice(before);
    const stale = asked.filter((r) => !r.body.prompt?.endsWith('var tax'));
    assert.ok(stale.length >= 1, 'no request before the last one reached the model');
    for (const r of stale) {
      assert.equal(r.answered, false, `the model answered the superseded prefix ${JSON.stringify(r.body.prompt.slice(-12))}`);
    }
    await waitFor('the superseded request aborted', () => stale.every((r) => r.aborted));
    // VS Code's word-by-word accept takes the first word; Escape dismisses the rest.
    const shown = await waitFor('the shown event', () => counted().findLast((e) => e.kind === 'shown')?.id);
    await t.page.keyboard.press('Control+ArrowRight');
    const taken = await waitFor('the partly accepted completion', async () => {
      const m = /^var tax(.+)$/m.exec(await bufferText());
      return m && ' = Fee() * 3'.startsWith(m[1]) && m[1].length < ' = Fee() * 3'.length ? m[1] : undefined;
    });
    await waitFor('the partial event', () => counted().some((e) => e.kind === 'partial' && e.id === shown && e.chars === taken.length));
    await t.page.keyboard.press('Escape');
    await waitFor('the ghost text dismissed', async () => (await ghost().count()) === 0);
    await waitFor('the dismissed event', () => counted().some((e) => e.kind === 'dismissed' && e.id === shown));
  });

  // ---- next-edit proposals ----

  // What decorations draw in the active editor: the text of their
  // before/after content (CSS pseudo-elements, or injected text) and the
  // text struck through.
  const decorations = () =>
    t.page.locator('.editor-group-container.active .monaco-editor .view-lines').evaluate((root) => {
      const drawn = [];
      const struck = [];
      for (const el of root.querySelectorAll('span')) {
        for (const pseudo of ['::before', '::after']) {
          const c = getComputedStyle(el, pseudo).content;
          if (c && c !== 'none' && c !== 'normal') {
            drawn.push(c.replace(/^["']|["']$/g, '').replace(/\\(.)/g, '$1'));
          }
        }
        if (/injected/.test(el.className) && el.children.length === 0) {
          drawn.push(el.textContent.replace(/\u00a0/g, ' '));
        }
        if (el.children.length === 0 && getComputedStyle(el).textDecorationLine.includes('line-through')) {
          struck.push(el.textContent);
        }
      }
      return { drawn, struck };
    });
  const proposalDrawn = async () => {
    const d = await decorations();
    return { ...d, news: d.drawn.filter((t) => t === 'count'), hints: d.drawn.filter((t) => /Tab to (accept|jump)/.test(t)) };
  };

  t.step('a next-edit proposal: a parameter renamed at its declaration proposes its uses; Tab renames them, one Ctrl+Z takes them back, Esc dismisses the next', async () => {
    await openFile(t.page, 'cart/scale.go');
    await statusBar(t.page).getByText('completion on').waitFor({ timeout: WAIT });
    // No ghost text in the way: the completion model answers nothing.
    t.model.scriptCompletions(() => ({ text: '' }));
    // Line 4 is "func Scale(n int, by int) int {": column 12 is n.
    await t.goToLine(4, 12);
    await t.page.keyboard.press('Shift+ArrowRight');
    await t.page.keyboard.type('count');
    // The server's proposal, drawn: each use struck through with the new
    // name after it, and the hint at the first.
    const drawn = await waitFor('the proposal drawn', async () => {
      const d = await proposalDrawn();
      return d.news.length === 3 && d.hints.length === 1 ? d : undefined;
    });
    assert.deepEqual(drawn.struck, ['n', 'n', 'n']);
    assert.match(drawn.hints[0], /^rename n to count: 3 more uses — Tab to accept · Esc to dismiss$/);
    await t.shot('next-edit.png');
    // Only the user's own rename is in the buffer yet.
    const typed = await bufferText();
    assert.match(typed, /^func Scale\(count int, by int\) int \{$/m);
    assert.match(typed, /^\s*if n < 0 \{$/m);
    await waitFor('the proposal counted offered', () => counted().some((e) => e.kind === 'next-edit-offered'));
    await t.page.keyboard.press('Tab');
    await waitFor('every use renamed', async () => /^\s*return count \* by$/m.test(await bufferText()));
    const renamed = await bufferText();
    assert.match(renamed, /^\s*if count < 0 \{$/m);
    assert.match(renamed, /^\s*return -count \* by$/m);
    assert.doesNotMatch(renamed, /\bn\b/);
    // No Tab typed besides (the cursor is still after the user's rename), and the proposal is gone.
    assert.match(renamed, /^func Scale\(count int, by int\) int \{$/m);
    await waitFor('the proposal gone', async () => {
      const d = await proposalDrawn();
      return d.news.length === 0 && d.hints.length === 0;
    });
    // The proposal's command reached the server.
    await waitFor('the accepted proposal counted', () => counted().some((e) => e.kind === 'next-edit-accepted'));
    // One undo step takes the three uses back, and only them.
    await t.page.keyboard.press('Control+Z');
    await waitFor('the uses back', async () => /^\s*return n \* by$/m.test(await bufferText()));
    const undone = await bufferText();
    assert.match(undone, /^func Scale\(count int, by int\) int \{$/m);
    assert.match(undone, /^\s*if n < 0 \{$/m);
    assert.match(undone, /^\s*return -n \* by$/m);
    // Esc dismisses the next one: by renamed factor at its declaration
    // (column 23), its two uses proposed, nothing applied.
    await t.goToLine(4, 23);
    await t.page.keyboard.press('Shift+ArrowRight');
    await t.page.keyboard.press('Shift+ArrowRight');
    await t.page.keyboard.type('factor');
    await waitFor('the second proposal drawn', async () => {
      const d = await proposalDrawn();
      return d.drawn.filter((t) => t === 'factor').length === 2 && d.hints.some((h) => h.startsWith('rename by to factor: 2 more uses'));
    });
    await t.page.keyboard.press('Escape');
    await waitFor('the second proposal dismissed', async () => {
      const d = await proposalDrawn();
      return d.drawn.filter((t) => t === 'factor').length === 0 && d.hints.length === 0;
    });
    const dismissed = await bufferText();
    assert.match(dismissed, /^func Scale\(count int, factor int\) int \{$/m);
    assert.match(dismissed, /^\s*return n \* by$/m);
  });
}
