// End to end without VS Code: the built extension (dist/extension.js) with
// the real vscode-languageclient drives a real `parley serve`, whose agent
// talks to a local fake model API. The `vscode` module is a stub
// (vscodeStub.ts) that records what the extension shows; the test plays the
// chat page by sending the page's messages.
//
// Needs a parley binary: $PARLEY_BIN, else ../../bin/parley (make build).
// Skipped without one unless CI=true and PARLEY_E2E=1.

import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FromView, ToView } from '../../src/webview/messages';
import { type HookItem, type ToolItem, reduceAll } from '../../src/webview/state';
import { root } from '../root';
import { Uri, createVscodeStub } from './vscodeStub';

const bin = path.resolve(process.env.PARLEY_BIN ?? path.join(root, '..', '..', 'bin', 'parley'));
const haveBin = fs.existsSync(bin);
const mustRun = process.env.CI === 'true' && process.env.PARLEY_E2E === '1';

interface FakeModel {
  url: string;
  script(steps: unknown[]): void;
  requests(): number;
  close(): Promise<void>;
}

describe.skipIf(!haveBin && !mustRun)('extension ↔ parley serve (vscode stubbed)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
  const ws = path.join(tmp, 'shop');
  const { vscode, rec } = createVscodeStub(ws);
  let model: FakeModel;
  let ext: { activate(c: unknown): Promise<void>; deactivate(): Promise<void> };
  const posted: ToView[] = [];
  let fromPage: (m: FromView) => void = () => undefined;
  const envBefore = { ...process.env };

  beforeAll(async () => {
    fs.mkdirSync(path.join(ws, 'cart'), { recursive: true });
    fs.mkdirSync(path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, 'go.mod'), 'module example.com/shop\n\ngo 1.22\n');
    fs.writeFileSync(
      path.join(ws, 'cart', 'cart.go'),
      'package cart\n\n// Total adds the fee.\nfunc Total(prices []int, fee int) int {\n\tsum := 0\n\tfor _, p := range prices {\n\t\tsum += p\n\t}\n\treturn sum + fee\n}\n',
    );
    // @ts-expect-error: a plain .mjs helper shared with the fixture recorder
    const { startFakeModel } = await import('../../scripts/fake-model.mjs');
    model = await startFakeModel();
    // The server inherits the extension host's environment: no real
    // config files, a temporary data directory, the local fake model.
    const home = path.join(tmp, 'home');
    fs.mkdirSync(path.join(home, '.config', 'parley'), { recursive: true });
    // Hooks for read_file only (the other tests' calls stay unhooked): the
    // user's blocks it (exit 2, stderr is the reason); the workspace's is
    // not approved, so it is refused and must not run.
    const preReadFile = (command: string) => ({ hooks: { PreToolUse: [{ matcher: 'read_file', hooks: [{ type: 'command', command }] }] } });
    fs.writeFileSync(path.join(home, '.config', 'parley', 'config.json'), JSON.stringify(preReadFile('echo reading is off today >&2; exit 2')));
    fs.mkdirSync(path.join(ws, '.parley'));
    fs.writeFileSync(path.join(ws, '.parley', 'config.json'), JSON.stringify(preReadFile('touch hook-ran')));
    Object.assign(process.env, {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      PARLEY_DATA_DIR: path.join(tmp, 'data'),
      PARLEY_API_URL: model.url,
      PARLEY_PROVIDER: 'anthropic',
      PARLEY_API_KEY: 'dummy-key-for-a-local-fake',
      PARLEY_MODEL: 'fake-model',
    });
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.OPENAI_API_KEY;
    rec.settings['parley.path'] = bin;
    rec.settings['parley.logLevel'] = 'debug';
    rec.settings['parley.agent.permissionMode'] = 'default';

    // dist/extension.js requires 'vscode': hand it the stub.
    const M = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
    const load = M._load;
    M._load = function (req: string, ...rest: unknown[]) {
      return req === 'vscode' ? vscode : load.call(this, req, ...rest);
    };
    const file = path.join(root, 'dist', 'extension.js');
    if (!fs.existsSync(file)) {
      throw new Error('dist/extension.js is missing: run npm run build first');
    }
    ext = Module.createRequire(file)(file);
    const state = new Map<string, unknown>();
    const workspaceState = { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => void state.set(k, v), keys: () => [...state.keys()] };
    await ext.activate({ extensionPath: root, extensionUri: Uri.file(root), subscriptions: [], workspaceState });

    // Open the chat view: resolve the webview as VS Code would.
    const provider = rec.webviewProviders.get('parley.chat');
    provider.resolveWebviewView({
      visible: true,
      show: () => undefined,
      onDidChangeVisibility: () => ({ dispose() {} }),
      onDidDispose: () => ({ dispose() {} }),
      webview: {
        options: {},
        html: '',
        cspSource: 'vscode-webview://stub',
        asWebviewUri: (u: Uri) => u,
        postMessage: async (m: ToView) => {
          posted.push(m);
          return true;
        },
        onDidReceiveMessage: (l: (m: FromView) => void) => {
          fromPage = l;
          return { dispose() {} };
        },
      },
    });
    fromPage({ type: 'ready' });
  });

  afterAll(async () => {
    await ext?.deactivate();
    await model?.close();
    process.env = envBefore;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const turnEnds = () => posted.filter((m) => m.type === 'turnEnd' || m.type === 'requestError').length;

  it('starts the server, shows index progress and counts in the status bar', async () => {
    await vi.waitFor(() => expect(rec.statusTexts.at(-1)).toMatch(/^\$\(database\) parley \d+ files · \d+ symbols$/), { timeout: 15000 });
    expect(rec.output.join('')).toContain(`starting ${bin} serve (from setting)`);
    expect(posted.some((m) => m.type === 'server' && m.state === 'running')).toBe(true);
    // The index run's $/progress went to the status bar, not a notification.
    expect(rec.statusTexts.some((t) => t.startsWith('$(sync~spin) parley'))).toBe(true);
  });

  it('Show Index Status lists the folder from parley/indexStatus', async () => {
    await rec.commands.get('parley.showIndexStatus')!();
    const items = rec.quickPicks.at(-1)!;
    expect(items[0].label).toMatch(/files · .* symbols/);
    expect(items.some((i) => i.label === `$(folder) ${ws}`)).toBe(true);
    expect(items.some((i) => i.label === '$(refresh) Reindex')).toBe(true);
  });

  it('Reindex sends parley/reindex', async () => {
    await rec.commands.get('parley.reindex')!();
    // A stale binary without parley/reindex shows up here: rebuild it (make build).
    expect(rec.messages.filter((m) => m.kind === 'error').map((m) => m.message)).toEqual([]);
    expect(rec.messages.some((m) => m.kind === 'statusBar' && m.message === 'parley: reindexing…')).toBe(true);
  });

  it('runs a chat turn: streamed events reach the view', async () => {
    model.script([{ blocks: [{ text: 'The fee is added **once**, after the loop.' }] }]);
    const n = turnEnds();
    fromPage({ type: 'send', text: 'Why is the fee added?', includeContext: true });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });
    const s = reduceAll(posted);
    const t = s.turns.at(-1)!;
    expect(t.user?.text).toBe('Why is the fee added?');
    expect(t.items).toEqual([{ kind: 'text', text: 'The fee is added **once**, after the loop.' }]);
    expect(t.stopReason).toBe('end_turn');
    expect(s.session).toMatch(/^\d{8}-\d{6}/);
    expect(rec.contextKeys.get('parley.chatRunning')).toBe(false);
  });

  it('an edit opens the preview (needsConfirmation); discarding it tells the agent why', async () => {
    rec.applyEditResult = false; // the user presses Discard in the Refactor Preview
    model.script([
      { blocks: [{ tool: 'edit_file', input: { path: 'cart/cart.go', old_string: '\t\tsum += p\n', new_string: '\t\tsum += p * 2\n' } }] },
      { blocks: [{ text: 'OK, I left it.' }] },
    ]);
    const n = turnEnds();
    const edits = rec.appliedEdits.length;
    fromPage({ type: 'send', text: 'Double the prices', includeContext: false });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });
    expect(rec.appliedEdits.length).toBe(edits + 1);
    const e = rec.appliedEdits.at(-1)!;
    expect(e.entries[0]).toMatchObject({ uri: pathToFileURL(path.join(ws, 'cart', 'cart.go')).href, text: ' * 2' });
    expect(e.entries[0].metadata).toMatchObject({ needsConfirmation: true });
    const t = reduceAll(posted).turns.at(-1)!;
    const tool = t.items.find((i) => i.kind === 'tool');
    expect(tool).toMatchObject({ name: 'edit_file', result: { isError: true } });
    expect((tool as { result: { content: string } }).result.content).toContain("did not apply the change in the editor's preview");
    expect(t.items.some((i) => i.kind === 'edit')).toBe(false);
    rec.applyEditResult = true;
  });

  it('asks a shell command in the view, then Stop cancels the running command', async () => {
    model.script([{ blocks: [{ text: 'Running it.' }, { tool: 'shell', input: { command: 'sleep 30' } }] }]);
    const n = turnEnds();
    fromPage({ type: 'send', text: 'Run something slow', includeContext: false });
    await vi.waitFor(() => expect(posted.some((m) => m.type === 'approval')).toBe(true), { timeout: 15000 });
    const q = posted.filter((m): m is Extract<ToView, { type: 'approval' }> => m.type === 'approval').at(-1)!;
    expect(q.message).toBe('parley wants to run: sleep 30');
    expect(q.actions).toEqual(['Allow once', 'Allow for this session', 'Deny']);
    const started = Date.now();
    fromPage({ type: 'approve', id: q.id, answer: 'Allow once' });
    await vi.waitFor(() => expect(rec.statusTexts.at(-1)).toContain('agent shell'), { timeout: 15000 });
    fromPage({ type: 'stop' });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });
    expect(Date.now() - started).toBeLessThan(15000); // sleep 30 was killed
    const t = reduceAll(posted).turns.at(-1)!;
    expect(t.stopReason).toBe('cancelled');
    const shell = t.items.find((i) => i.kind === 'tool') as { name: string; result?: { isError?: boolean } };
    expect(shell.name).toBe('shell');
    if (shell.result) {
      expect(shell.result.isError).toBe(true); // killed (or never started)
    }
  });

  it('lists and loads the sessions', async () => {
    posted.length = 0;
    fromPage({ type: 'listSessions' });
    await vi.waitFor(() => expect(posted.some((m) => m.type === 'sessions' && m.sessions.length >= 1)).toBe(true));
    const list = posted.filter((m): m is Extract<ToView, { type: 'sessions' }> => m.type === 'sessions').at(-1)!;
    // All three turns above ran in one session; the list has it.
    const first = list.sessions.find((s) => s.title === 'Why is the fee added?');
    expect(first).toBeDefined();
    fromPage({ type: 'openSession', id: first!.id });
    await vi.waitFor(() => expect(posted.some((m) => m.type === 'history')).toBe(true));
    const s = reduceAll(posted);
    expect(s.turns.map((t) => t.user?.text)).toEqual(['Why is the fee added?', 'Double the prices', 'Run something slow']);
  });

  it('Compact Conversation asks a focus and compacts the shown session (parley/compact)', async () => {
    const session = reduceAll(posted).session!;
    model.script([{ blocks: [{ text: 'Asked about the fee; a doubling edit was discarded; a slow command was stopped.' }] }]);
    rec.inputBoxAnswer = 'the fee';
    const n = posted.length;
    await rec.commands.get('parley.compact')!();
    expect(rec.inputBoxes.at(-1)).toMatchObject({ title: 'Compact the conversation' });
    const mine = posted.slice(n);
    expect(mine.map((m) => m.type)).toEqual(['compactStart', 'event', 'compactEnd']);
    const e = (mine[1] as Extract<ToView, { type: 'event' }>).event;
    expect(e).toMatchObject({ session, kind: 'compaction', compaction: { reason: 'manual', focus: 'the fee' } });
    expect(e.compaction!.summarised).toBeGreaterThan(0);
    expect(e.text).toMatch(/^compacted the conversation \(manual\)/);
    expect(mine[2]).toEqual({ type: 'compactEnd', notice: undefined });
    const s = reduceAll(posted);
    expect(s.turns.at(-1)).toMatchObject({ between: true, items: [{ kind: 'compaction', compaction: e.compaction }] });

    // Reopened, the session carries the compaction and its summary.
    fromPage({ type: 'openSession', id: session });
    await vi.waitFor(() => expect(posted.slice(n).some((m) => m.type === 'history')).toBe(true));
    const first = reduceAll(posted).turns[0];
    expect(first.items[0]).toMatchObject({ kind: 'compaction', compaction: { focus: 'the fee' }, summary: expect.stringContaining('a slow command was stopped') });
  });

  it('a request refused as too long is compacted inside the turn (overflow) and answered', async () => {
    model.script([{ blocks: [{ text: 'One more answer.' }] }]);
    let n = turnEnds();
    fromPage({ type: 'send', text: 'One more question', includeContext: false });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });
    model.script([
      { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } } },
      { blocks: [{ text: 'Summary of the fee questions.' }] }, // the summary request
      { blocks: [{ text: 'Answered after compacting.' }] },
    ]);
    n = turnEnds();
    fromPage({ type: 'send', text: 'And the tax?', includeContext: false });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });
    const t = reduceAll(posted).turns.at(-1)!;
    expect(t.user?.text).toBe('And the tax?');
    expect(t.stopReason).toBe('end_turn');
    expect(t.items.map((i) => i.kind)).toEqual(['compaction', 'text']);
    expect(t.items[0]).toMatchObject({ kind: 'compaction', compaction: { reason: 'overflow' } });
    expect(t.items[1]).toEqual({ kind: 'text', text: 'Answered after compacting.' });
  });

  it('hooks: a blocking PreToolUse hook and an unapproved workspace hook are entries of the turn', async () => {
    model.script([{ blocks: [{ tool: 'read_file', input: { path: 'cart/cart.go' } }] }, { blocks: [{ text: 'The hook stopped me.' }] }]);
    const n = turnEnds();
    fromPage({ type: 'send', text: 'Read cart.go', includeContext: false });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });
    const t = reduceAll(posted).turns.at(-1)!;
    expect(t.user?.text).toBe('Read cart.go');
    expect(t.stopReason).toBe('end_turn');
    expect(t.items.map((i) => i.kind)).toEqual(['tool', 'hook', 'hook', 'text']);
    const hooks = t.items.filter((i): i is HookItem => i.kind === 'hook').map((i) => i.hook);
    expect(hooks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'PreToolUse', command: 'touch hook-ran', outcome: 'refused' }),
        expect.objectContaining({ event: 'PreToolUse', command: 'echo reading is off today >&2; exit 2', outcome: 'blocked', exitCode: 2, message: 'reading is off today' }),
      ]),
    );
    // The model was told why: the call's result carries the hook's reason.
    const tool = t.items[0] as ToolItem;
    expect(tool).toMatchObject({ name: 'read_file', result: { isError: true } });
    expect(tool.result!.content).toContain('reading is off today');
    expect(fs.existsSync(path.join(ws, 'hook-ran'))).toBe(false);
  });

  it('sends changed agent settings as workspace/didChangeConfiguration', async () => {
    rec.settings['parley.agent.model'] = 'fake-model-2';
    for (const l of rec.configListeners) {
      l({ affectsConfiguration: (s: string) => 'parley.agent.model'.startsWith(s) });
    }
    model.script([{ blocks: [{ text: 'ok' }] }]);
    const n = turnEnds();
    fromPage({ type: 'newSession' });
    fromPage({ type: 'send', text: 'hello', includeContext: false });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });
    expect(rec.output.join('')).toContain('agent settings changed');
  });

  it('memory view: what the agent remembers is listed; search, add, edit, forget (confirmed) go to parley/memory*', async () => {
    model.script([
      { blocks: [{ tool: 'remember', input: { content: 'The cart fee is added once, after the loop', type: 'code_pattern', importance: 7, anchors: [{ path: 'cart/cart.go', symbol: 'Total' }] } }] },
      { blocks: [{ text: 'Noted.' }] },
    ]);
    const n = turnEnds();
    fromPage({ type: 'send', text: 'Remember how the fee works', includeContext: false });
    await vi.waitFor(() => expect(turnEnds()).toBe(n + 1), { timeout: 15000 });

    const tree = rec.treeViews.get('parley.memory')!;
    expect(tree).toBeDefined();
    tree.setVisible(true); // the first show lists the memories
    await vi.waitFor(() => expect(tree.provider.getChildren().length).toBe(1));
    const [m] = tree.provider.getChildren();
    expect(m).toMatchObject({ ref: '1', type: 'code_pattern', importance: 7, anchors: [{ path: 'cart/cart.go', symbol: 'Total' }] });
    const item = tree.provider.getTreeItem(m);
    expect(item.description).toBe('[1] · code_pattern · ★7');
    expect(item.contextValue).toBe('memory');

    // Add a user memory through the four questions.
    rec.inputBoxQueue.push('Prefers table-driven tests', '8');
    rec.quickPickQueue.push('preference', 'user');
    await rec.commands.get('parley.memory.add')!();
    expect(rec.messages.filter((x) => x.kind === 'error')).toEqual([]);
    expect(tree.provider.getChildren().map((x: { ref: string }) => x.ref)).toEqual(['1', 'u1']);

    // Search, then back to the list.
    rec.inputBoxQueue.push('fee loop');
    await rec.commands.get('parley.memory.search')!();
    expect(tree.provider.getChildren().map((x: { ref: string }) => x.ref)).toEqual(['1']);
    expect(tree.view.message).toBe('1 memory matching "fee loop"');
    rec.inputBoxQueue.push('');
    await rec.commands.get('parley.memory.search')!();

    // Show opens the memory as Markdown.
    await rec.commands.get('parley.memory.show')!(m);
    expect(rec.documents.at(-1)).toContain('- anchor: `cart/cart.go#Total`');

    // Edit the importance.
    rec.quickPickQueue.push('importance');
    rec.inputBoxQueue.push('9');
    await rec.commands.get('parley.memory.edit')!(m);
    expect(tree.provider.getChildren()[0]).toMatchObject({ ref: '1', importance: 9 });

    // Forget asks first; declining keeps it.
    const u1 = tree.provider.getChildren()[1];
    rec.answer = () => undefined;
    await rec.commands.get('parley.memory.forget')!(u1);
    expect(rec.messages.at(-1)).toMatchObject({ kind: 'warning', message: 'Forget memory u1?' });
    expect(tree.provider.getChildren()).toHaveLength(2);
    rec.answer = (msg, items) => (msg.startsWith('Forget memory') ? items[0] : undefined);
    await rec.commands.get('parley.memory.forget')!(u1);
    expect(tree.provider.getChildren().map((x: { ref: string }) => x.ref)).toEqual(['1']);
    rec.answer = () => undefined;

    await rec.commands.get('parley.memory.stats')!();
    expect(rec.messages.at(-1)!.message).toBe('parley: workspace memories: 1 (1 code_pattern); user memories: 0');

    // A turn that forgets a memory refreshes the shown view when it ends.
    model.script([{ blocks: [{ tool: 'forget_memory', input: { id: '1' } }] }, { blocks: [{ text: 'Forgotten.' }] }]);
    const n2 = turnEnds();
    fromPage({ type: 'send', text: 'Forget how the fee works', includeContext: false });
    await vi.waitFor(() => expect(turnEnds()).toBe(n2 + 1), { timeout: 15000 });
    await vi.waitFor(() => expect(tree.provider.getChildren()).toHaveLength(0));
    expect(tree.view.message).toBe('No memories yet. The agent writes them with remember; add one with +.');
  });
});
