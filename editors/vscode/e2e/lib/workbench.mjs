// Driving VS Code's workbench in headless Chromium (playwright-core) as a
// user does: keys, the command palette, quick open, clicks. Every wait is
// on a condition (a selector, a text), never a fixed delay.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';

/** Condition waits: long enough for a loaded 2-core CI machine. */
export const WAIT = 60_000;

// The closed network refuses Chromium's background connections; these
// flags keep it from trying (and root needs --no-sandbox).
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launch(executablePath) {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/**
 * Opens the workbench on folder in a new page and waits for the
 * workbench's parts. Page errors are collected in problems.
 */
export async function openWorkbench(browser, url, folder) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: WAIT });
  return { page, problems };
}

export const statusBar = (page) => page.locator('#workbench\\.parts\\.statusbar');

/** The quick input's visible list rows. */
const quickRows = (page) => page.locator('.quick-input-widget .quick-input-list .monaco-list-row');

/** Runs a command by its palette title (F1, type, pick the exact row). */
export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ timeout: WAIT });
  await input.fill(`>${title}`);
  const row = quickRows(page).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(title)}$`) }) });
  await row.first().click({ timeout: WAIT });
}

/** Opens a workspace file with Quick Open (Ctrl+P). */
export async function openFile(page, relPath) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ timeout: WAIT });
  await input.fill(relPath);
  const base = path.basename(relPath);
  // A click, not Enter: Enter can land while the picks are replaced.
  await quickRows(page).filter({ hasText: base }).filter({ hasText: path.dirname(relPath) }).first().click({ timeout: WAIT });
  await activeTab(page, base).waitFor({ timeout: WAIT });
}

/** The active editor tab, by its label. */
export const activeTab = (page, label) => page.locator('.tabs-container .tab.active', { has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(label)}$`) }) });

/** The text of the active editor's visible lines (Monaco renders spaces as nbsp). */
export async function editorText(page) {
  const t = await page.locator('.editor-group-container.active .monaco-editor .view-lines').innerText();
  return t.replace(/\u00a0/g, ' ');
}

/** The chat view's page: the extension's webview inside VS Code's two iframes. */
export function chatFrame(page) {
  return page.frameLocator('iframe.webview.ready[src*="extensionId=parleyhq.parley"]').frameLocator('#active-frame');
}

/** Saves a PNG of the page under dir; returns its path. */
export async function screenshot(page, dir, name) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  await page.screenshot({ path: file });
  return file;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
