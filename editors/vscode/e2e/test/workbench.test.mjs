// The extension in a real VS Code: the packaged .vsix installed into
// code-server (VS Code's web build), whose extension host starts the
// freshly built `parley serve` on the fixture workspace
// testdata/workspaces/shop.txtar, with the agent talking to a local fake
// model API (../scripts/fake-model.mjs). Headless Chromium plays the user:
// keys, the command palette, clicks in the chat view and the Refactor
// Preview. The steps run in order in one workbench, as one user session.
//
// Nothing here skips: a missing binary, .vsix, code-server or Chromium
// fails the run (lib/codeserver.mjs inputs()). Screenshots go to
// artifacts/ (and, on failure, the logs of code-server, the extension
// host and parley); with UPDATE_SCREENSHOTS=1 the README's screenshots in
// ../media/screenshots are replaced by this run's. With
// PARLEY_SCREENSHOT_DIR set, the ghost text's screenshot (the one
// docs/img/vscode-ghost-text.png comes from) is written there too.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { e2eDir, extDir, inputs, installExtension, layout, repoRoot, startCodeServer, writeUserSettings } from '../lib/codeserver.mjs';
import { extractTxtar } from '../lib/txtar.mjs';
import { WAIT, activeTab, chatFrame, editorText, launch, openFile, openWorkbench, runCommand, screenshot, statusBar } from '../lib/workbench.mjs';
import { startFakeModel } from '../../scripts/fake-model.mjs';
import { editingSteps } from '../lib/editingSteps.mjs';

const artifacts = path.join(e2eDir, 'artifacts');
// The screenshots README.md shows, written by this run.
const README_SHOTS = new Set(['workbench-index.png', 'refactor-preview.png', 'chat-edit-applied.png', 'chat-approval.png', 'chat-stopped.png']);
// Added to the fixture workspace: n is used three times after its declaration (line 4).
const SCALE_GO = `package cart

// Scale multiplies by a factor; a negative amount counts as positive.
func Scale(n int, by int) int {
\tif n < 0 {
\t\treturn -n * by
\t}
\treturn n * by
}
`;

// An error from the start (a baseline the edit's report must not repeat),
// and a function the agent breaks.
const TOTAL_TS = `export const label: string = 1;

export function total(a: number, b: number): number {
  return a + b;
}
`;

describe('the extension in code-server', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-vscode-e2e-'));
  const ws = path.join(tmp, 'shop');
  let model, server, browser, page, problems, l;
  let failed = false;

  const shot = async (name) => {
    const file = await screenshot(page, artifacts, name);
    if (process.env.UPDATE_SCREENSHOTS === '1' && README_SHOTS.has(name)) {
      fs.copyFileSync(file, path.join(extDir, 'media', 'screenshots', name));
    }
  };
  // A failing step leaves a screenshot of the moment it failed.
  const step = (name, fn) =>
    it(name, async () => {
      try {
        await fn();
      } catch (e) {
        failed = true;
        if (page) {
          await screenshot(page, artifacts, `failed-${name.replace(/\W+/g, '-')}.png`).catch(() => undefined);
        }
        throw e;
      }
    });

  before(async () => {
    try {
      await setUp();
    } catch (e) {
      failed = true;
      throw e;
    }
  });

  const setUp = async () => {
    fs.rmSync(artifacts, { recursive: true, force: true });
    const bin = inputs();
    extractTxtar(path.join(repoRoot, 'testdata', 'workspaces', 'shop.txtar'), ws);
    // A parameter used three times, for the next-edit proposal's rename.
    fs.writeFileSync(path.join(ws, 'cart', 'scale.go'), SCALE_GO);
    model = await startFakeModel();
    // Inline completion's model: the workspace's config file (docs/protocol.md,
    // "Inline completion"), an OpenAI-compatible /v1/completions.
    fs.mkdirSync(path.join(ws, '.parley'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.parley', 'config.json'),
      // lsp_timeout_ms: the TypeScript server's first answers on a busy
      // machine may take longer than the default 2 s.
      JSON.stringify(
        // vision: the fake model takes images (the pasted-image step).
        { completion: { provider: 'openai-completions', model: 'fake-fim', api_url: model.completionsUrl }, lsp_timeout_ms: 15000, vision: { 'fake-model': true } },
        null,
        2,
      ),
    );
    // The README's minimal setup: the binary in parley.path, the model's
    // key (and here its URL) in the environment VS Code starts from.
    l = layout(tmp, {
      PARLEY_DATA_DIR: path.join(tmp, 'data'),
      PARLEY_API_URL: model.url,
      PARLEY_PROVIDER: 'anthropic',
      PARLEY_API_KEY: 'dummy-key-for-a-local-fake',
      PARLEY_MODEL: 'fake-model',
    });
    installExtension(bin.codeServer, bin.vsix, l);
    writeUserSettings(l, {
      'parley.path': bin.parley,
      // A quiet first start: no welcome page, tips, telemetry or updates.
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'update.mode': 'none',
      // VS Code's web build saves after a delay by default; the desktop
      // default (what the README describes) is off.
      'files.autoSave': 'off',
      // No word-based suggest widget over the ghost text (with it open,
      // VS Code shows only inline completions that extend its item).
      'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
    });
    server = await startCodeServer(bin.codeServer, l);
    browser = await launch(bin.chromium);
    ({ page, problems } = await openWorkbench(browser, server.url, ws));
  };

  const goToLine = async (line, col) => {
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ timeout: WAIT });
    await input.fill(`:${line}:${col}`);
    await page.keyboard.press('Enter');
    // The status bar counts a tab as its width: the line is enough.
    await statusBar(page).getByText(`Ln ${line},`).waitFor({ timeout: WAIT });
  };

  after(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
    if (failed) {
      // code-server's output, the extension host's logs and the parley
      // output channel (user-data/logs), and parley's own log files.
      fs.mkdirSync(artifacts, { recursive: true });
      for (const [from, to] of [
        [l?.log, 'code-server.log'],
        [l && path.join(l.userData, 'logs'), 'logs'],
        [path.join(tmp, 'data'), 'parley-data'],
      ]) {
        if (from && fs.existsSync(from)) {
          fs.cpSync(from, path.join(artifacts, to), { recursive: true, filter: (f) => !f.endsWith('.sst') });
        }
      }
      if (problems?.length) {
        fs.writeFileSync(path.join(artifacts, 'page-errors.txt'), problems.join('\n'));
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  step('the status bar shows the index', async () => {
    await statusBar(page).getByText(/parley\s+6 files\s+·\s+10 symbols/).waitFor({ timeout: WAIT });
  });

  // Code-server has no Go language server: the symbols, definitions and
  // workspace symbols below can only come from parley's index.
  step('the Outline view lists the file’s symbols', async () => {
    await openFile(page, 'cart/cart.go');
    await runCommand(page, 'Explorer: Focus on Outline View');
    const outline = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Outline' }) });
    for (const name of ['Cart', 'Items', 'Total', 'Fee']) {
      await outline.locator('.monaco-list-row .label-name', { hasText: new RegExp(`^${name}$`) }).first().waitFor({ timeout: WAIT });
    }
    // The details are the signatures parley's index stores.
    await outline.locator('.monaco-list-row', { hasText: 'func (c *Cart) Total() int' }).waitFor({ timeout: WAIT });
    await shot('workbench-index.png');
  });

  step('Go to Definition (F12) jumps to the ranked definition', async () => {
    await openFile(page, 'cart/cart.go');
    // Line 14 is "\t\tsum += price.Of(it)": column 16 is the O of Of.
    await goToLine(14, 16);
    await page.keyboard.press('F12');
    await activeTab(page, 'price.go').waitFor({ timeout: WAIT });
    await statusBar(page).getByText(/Ln 4, Col \d+/).waitFor({ timeout: WAIT });
  });

  step('workspace symbols (Ctrl+T) come from the index', async () => {
    await page.keyboard.press('Control+T');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ timeout: WAIT });
    await input.pressSequentially('Discount');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Discount' });
    await row.first().waitFor({ timeout: WAIT });
    await page.keyboard.press('Enter');
    await activeTab(page, 'fee.go').waitFor({ timeout: WAIT });
  });

  // The chat view's page, and the ends of turns it shows.
  const chat = () => chatFrame(page);
  const turnMetas = () => chat().locator('.turn-meta');
  const send = async (text) => {
    const input = chat().locator('#input');
    await input.fill(text);
    await input.press('Enter');
  };

  const previewPane = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Refactor Preview' }) });
  // The extension's status bar hint while the preview waits.
  const reviewHint = () => statusBar(page).getByText(/in the Refactor Preview/);
  const toolResult = (body) => body.messages.at(-1).content.find((c) => c.type === 'tool_result');

  step('Apply with the changes left unticked applies nothing, and the agent is told', async () => {
    await openFile(page, 'cart/cart.go');
    await runCommand(page, 'parley: Focus on Chat View');
    await chat().locator('#input').waitFor({ timeout: WAIT });
    model.script([
      { blocks: [{ tool: 'edit_file', input: { path: 'cart/cart.go', old_string: 'return sum + Fee()', new_string: 'return sum + 3*Fee()' } }] },
      { blocks: [{ text: 'Left as it was.' }] },
    ]);
    const ends = await turnMetas().count();
    await send('Triple the fee in Total');
    await previewPane().getByText('cart.go').first().waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await turnMetas().nth(ends).waitFor({ timeout: WAIT });
    assert.doesNotMatch(await editorText(page), /3\*Fee/);
    assert.equal(await reviewHint().count(), 0, 'the review hint outlived the preview');
    const result = toolResult(model.bodies().at(-1));
    assert.equal(result.is_error, true);
    assert.match(JSON.stringify(result.content), /did not apply the change in the editor's preview/);
  });

  step('a chat edit opens the Refactor Preview; Apply changes the buffer, not the disk; Undo restores it', async () => {
    const onDisk = path.join(ws, 'cart', 'cart.go');
    const before = fs.readFileSync(onDisk, 'utf8');
    await openFile(page, 'cart/cart.go');
    await runCommand(page, 'parley: Focus on Chat View');
    await chat().locator('#input').waitFor({ timeout: WAIT });
    model.script([
      { blocks: [{ text: 'Doubling the fee.' }, { tool: 'edit_file', input: { path: 'cart/cart.go', old_string: 'return sum + Fee()', new_string: 'return sum + 2*Fee()' } }] },
      { blocks: [{ text: 'The fee is now counted twice.' }] },
    ]);
    const ends = await turnMetas().count();
    await send('Double the fee in Total');
    // The default permission mode: the edit needs confirmation, so VS Code
    // shows it in the Refactor Preview before anything changes.
    const preview = previewPane();
    await preview.getByText('cart.go').first().waitFor({ timeout: WAIT });
    assert.equal(await editorText(page).then((t) => t.includes('2*Fee()')), false, 'changed before Apply');
    // VS Code leaves changes that need confirmation unchecked: the user
    // ticks the file (all its changes), then applies.
    const file = preview.locator('.monaco-list-row', { hasText: 'cart.go' }).locator('input.edit-checkbox');
    assert.equal(await file.isChecked(), false);
    await file.check();
    await preview.locator('.monaco-list-row', { hasText: '2*Fee()' }).locator('input.edit-checkbox:checked').waitFor({ timeout: WAIT });
    await shot('refactor-preview.png');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await turnMetas().nth(ends).waitFor({ timeout: WAIT });
    await chat().getByText('The fee is now counted twice.').waitFor({ timeout: WAIT });
    assert.equal(await reviewHint().count(), 0, 'the review hint outlived the preview');
    // The buffer changed and is dirty; the disk did not.
    assert.match(await editorText(page), /return sum \+ 2\*Fee\(\)/);
    assert.equal(fs.readFileSync(onDisk, 'utf8'), before);
    await page.locator('.tabs-container .tab.active.dirty').waitFor({ timeout: WAIT });
    await shot('chat-edit-applied.png');
    // Undo in the editor takes the agent's edit back.
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+Z');
    await page.locator('.tabs-container .tab.active:not(.dirty)', { hasText: 'cart.go' }).waitFor({ timeout: WAIT });
    assert.match(await editorText(page), /return sum \+ Fee\(\)/);
    assert.equal(fs.readFileSync(onDisk, 'utf8'), before);
  });

  step("an edit's TypeScript error reaches the agent from the workbench's own diagnostics", async () => {
    // Written here, not in setUp: the index's counts of the first step
    // stay those of the fixture.
    fs.mkdirSync(path.join(ws, 'web'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'web', 'total.ts'), TOTAL_TS);
    await openFile(page, 'web/total.ts');
    // The TypeScript server has analysed the file once it underlines the
    // first error.
    await page.locator('.editor-group-container.active .monaco-editor .squiggly-error').first().waitFor({ timeout: WAIT });
    await runCommand(page, 'parley: Focus on Chat View');
    await chat().locator('#input').waitFor({ timeout: WAIT });
    model.script([
      { blocks: [{ tool: 'edit_file', input: { path: 'web/total.ts', old_string: 'return a + b;', new_string: 'return `${a}` + b;' } }] },
      { blocks: [{ text: 'total now returns a string.' }] },
    ]);
    const ends = await turnMetas().count();
    await send('Make total concatenate');
    const preview = previewPane();
    await preview.getByText('total.ts').first().waitFor({ timeout: WAIT });
    await preview.locator('.monaco-list-row', { hasText: 'total.ts' }).locator('input.edit-checkbox').check();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await turnMetas().nth(ends).waitFor({ timeout: WAIT });
    const result = JSON.stringify(toolResult(model.bodies().at(-1)).content);
    assert.match(result, /Diagnostics after this edit:/);
    assert.match(result, /web\/total\.ts: 1 new problem \(the editor\)/);
    assert.match(result, /web\/total\.ts:4:\d+ error \[ts\] Type 'string' is not assignable to type 'number'/);
    assert.doesNotMatch(result, /Type 'number' is not assignable to type 'string'/);
  });

  step('a shell command is asked in the chat view; the denial reaches the model', async () => {
    model.script([
      { blocks: [{ text: 'Let me make a note.' }, { tool: 'shell', input: { command: 'touch note.txt' } }] },
      { blocks: [{ text: 'Understood, I will not run it.' }] },
    ]);
    const ends = await turnMetas().count();
    const requests = model.requests();
    await runCommand(page, 'parley: Focus on Chat View');
    await send('Make a note file');
    const deny = chat().locator('.approvals button[data-answer="Deny"]');
    await deny.waitFor({ timeout: WAIT });
    await chat().getByText('parley wants to run: touch note.txt').waitFor({ timeout: WAIT });
    await shot('chat-approval.png');
    await deny.click();
    await turnMetas().nth(ends).waitFor({ timeout: WAIT });
    assert.equal(fs.existsSync(path.join(ws, 'note.txt')), false);
    // The model's next request carries the refusal as the tool's result.
    assert.equal(model.requests(), requests + 2);
    const result = toolResult(model.bodies().at(-1));
    assert.equal(result.is_error, true);
    assert.match(JSON.stringify(result.content), /denied/i);
  });

  step('an @-mention picked in the chat view sends the file; its chip counts the tokens', async () => {
    await runCommand(page, 'parley: Focus on Chat View');
    const input = chat().locator('#input');
    await input.waitFor({ timeout: WAIT });
    model.script([{ blocks: [{ text: 'Discount takes one off.' }] }]);
    const ends = await turnMetas().count();
    await input.fill('');
    await input.pressSequentially('Explain @fee');
    const item = chat().locator('#mention-menu .mention-item', { hasText: 'cart/fee.go' }).first();
    await item.waitFor({ timeout: WAIT });
    await item.click();
    assert.equal(await input.inputValue(), 'Explain @cart/fee.go ');
    await input.press('Enter');
    await turnMetas().nth(ends).waitFor({ timeout: WAIT });
    await chat().locator('.user .mention-chip', { hasText: /^cart\/fee\.go · [\d,]+ tokens?$/ }).waitFor({ timeout: WAIT });
    assert.match(JSON.stringify(model.bodies().at(-1).messages), /Discount lowers the fee/);
  });

  step('an image pasted on the chat input shows as a chip and reaches the model as an image block', async () => {
    await runCommand(page, 'parley: Focus on Chat View');
    const input = chat().locator('#input');
    await input.waitFor({ timeout: WAIT });
    model.script([{ blocks: [{ text: 'A red dot.' }] }]);
    const ends = await turnMetas().count();
    // A 1x1 PNG on the clipboard, as a screenshot paste delivers it.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    await input.evaluate((el, b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'image.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, png);
    await chat().locator('#attachments .image-chip', { hasText: 'pasted-1.png' }).waitFor({ timeout: WAIT });
    await input.fill('What is in the picture?');
    await input.press('Enter');
    await turnMetas().nth(ends).waitFor({ timeout: WAIT });
    await chat().locator('.user .user-images', { hasText: 'pasted-1.png' }).waitFor({ timeout: WAIT });
    const last = model.bodies().at(-1).messages.at(-1);
    assert.deepEqual(
      last.content.find((b) => b.type === 'image')?.source,
      { type: 'base64', media_type: 'image/png', data: png },
    );
  });

  // ---- inline completion and next-edit proposals (lib/editingSteps.mjs) ----
  editingSteps({
    get page() {
      return page;
    },
    get model() {
      return model;
    },
    step,
    shot,
    goToLine,
    tmp,
  });

  step('Stop cancels a long turn', async () => {
    model.script([{ blocks: [{ text: 'Running the slow job.' }, { tool: 'shell', input: { command: 'sleep 600' } }] }]);
    const ends = await turnMetas().count();
    await send('Run the slow job');
    const allow = chat().locator('.approvals button[data-answer="Allow once"]');
    await allow.waitFor({ timeout: WAIT });
    await allow.click();
    await statusBar(page).getByText(/agent/).first().waitFor({ timeout: WAIT });
    await chat().locator('#stop').click();
    // sleep 600 outlives every wait here: the turn ends because Stop
    // cancelled it and the command was killed.
    await chat().locator('.stop-cancelled').waitFor({ timeout: WAIT });
    assert.equal(await turnMetas().count(), ends + 1);
    await chat().locator('#send').waitFor({ state: 'visible', timeout: WAIT });
    await shot('chat-stopped.png');
  });
});
