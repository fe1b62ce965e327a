#!/usr/bin/env node
// Records the chat fixtures in test/fixtures/ from a real `parley serve`:
// a local fake model API (Anthropic Messages wire format, scripted per
// scenario) answers the agent, and this script plays the editor over
// stdio: it answers workspace/applyEdit, window/showMessageRequest and
// window/workDoneProgress/create, and writes down every parley/event,
// $/progress, edit and approval in the order they arrived.
//
//   node scripts/record-fixtures.mjs [path/to/parley]
//
// The binary defaults to $PARLEY_BIN, else ../../bin/parley. Nothing leaves
// the machine: the model API listens on 127.0.0.1, the key is a dummy, and
// the workspace, data and config directories are temporary. Paths, session
// ids and times are replaced with stable values so re-recording only
// changes what the server really does differently.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFakeModel } from './fake-model.mjs';

const require = createRequire(import.meta.url);
const rpc = require('vscode-jsonrpc/node');

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');
const out = path.join(ext, 'test', 'fixtures');
const bin = path.resolve(process.argv[2] ?? process.env.PARLEY_BIN ?? path.join(ext, '..', '..', 'bin', 'parley'));
if (!fs.existsSync(bin)) {
  console.error(`no parley binary at ${bin}: run make build, or pass its path`);
  process.exit(1);
}

// ---- the workspace ----

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-rec-'));
const ws = path.join(tmp, 'shop');
const STABLE_ROOT = '/home/dev/shop';
fs.mkdirSync(path.join(ws, 'cart'), { recursive: true });
fs.mkdirSync(path.join(ws, '.git'));
fs.writeFileSync(path.join(ws, 'go.mod'), 'module example.com/shop\n\ngo 1.22\n');
const cartGo = `package cart

// Item is one line of a cart.
type Item struct {
	Name  string
	Price int // cents
	Qty   int
}

// Total is the sum of the items plus the delivery fee.
func Total(items []Item, fee int) int {
	sum := 0
	for _, it := range items {
		sum += it.Price
	}
	return sum + fee
}
`;
fs.writeFileSync(path.join(ws, 'cart', 'cart.go'), cartGo);
const cartURI = pathToFileURL(path.join(ws, 'cart', 'cart.go')).href;

// ---- the fake model API ----

const model = await startFakeModel();
const apiURL = model.url;

// ---- the server and the editor side ----

const home = path.join(tmp, 'home');
fs.mkdirSync(path.join(home, '.config', 'parley'), { recursive: true });
// Hooks for the hook fixture, on grep and glob only (no other recording
// calls them): the user's block grep (exit 2) and end the turn on glob
// (continue: false); the workspace's one is not approved, so refused.
const preToolUse = (matcher, command) => ({ matcher, hooks: [{ type: 'command', command }] });
fs.writeFileSync(
  path.join(home, '.config', 'parley', 'config.json'),
  JSON.stringify({
    hooks: {
      PreToolUse: [
        preToolUse('grep', 'echo no grep in this repository, use the index >&2; exit 2'),
        preToolUse('glob', `echo '{"continue": false, "stopReason": "enough searching"}'`),
      ],
    },
  }),
);
fs.mkdirSync(path.join(ws, '.parley'));
fs.writeFileSync(path.join(ws, '.parley', 'config.json'), JSON.stringify({ hooks: { PreToolUse: [preToolUse('grep|glob', './scripts/audit.sh')] } }));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_CACHE_HOME: path.join(home, '.cache'),
  PARLEY_DATA_DIR: path.join(tmp, 'data'),
  PARLEY_API_URL: apiURL,
  PARLEY_PROVIDER: 'anthropic',
  PARLEY_MODEL: 'fake-model',
  PARLEY_API_KEY: 'dummy-key-for-a-local-fake',
};
const proc = spawn(bin, ['serve', '--no-watch', '--log-file', path.join(tmp, 'serve.log')], { cwd: ws, env, stdio: ['pipe', 'pipe', 'inherit'] });
const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));

/** Everything the editor saw during the current recording. */
let log = null;
const waiters = [];
function note(kind, value) {
  if (log) {
    log[kind].push(value);
  }
  for (const w of [...waiters]) {
    if (w.test(kind, value)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(value);
    }
  }
}
function waitFor(test, ms = 20000) {
  return new Promise((resolve, reject) => {
    const w = { test, resolve };
    waiters.push(w);
    setTimeout(() => reject(new Error('timed out waiting')), ms).unref();
  });
}

let approvalAnswer = 'Allow once';
conn.onNotification('parley/event', (e) => note('events', e));
conn.onNotification('$/progress', (p) => note('progress', p));
conn.onNotification('window/logMessage', () => undefined);
conn.onRequest('window/workDoneProgress/create', () => null);
conn.onRequest('client/registerCapability', () => null);
conn.onRequest('workspace/configuration', (p) => p.items.map(() => null));
conn.onRequest('workspace/applyEdit', (p) => {
  note('applyEdits', p);
  return { applied: true };
});
conn.onRequest('window/showMessageRequest', (p) => {
  note('approvals', { request: p, answer: approvalAnswer });
  return p.actions?.find((a) => a.title === approvalAnswer) ?? null;
});
conn.listen();

const init = await conn.sendRequest('initialize', {
  processId: process.pid,
  clientInfo: { name: 'parley-fixture-recorder' },
  rootUri: pathToFileURL(ws).href,
  workspaceFolders: [{ uri: pathToFileURL(ws).href, name: 'shop' }],
  initializationOptions: { logLevel: 'info', editConfirmation: 'annotations', agent: { permission_mode: 'default' } },
  capabilities: {
    general: { positionEncodings: ['utf-16'] },
    window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: false } } },
    workspace: {
      applyEdit: true,
      workspaceFolders: true,
      workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'], failureHandling: 'textOnlyTransactional', changeAnnotationSupport: { groupsOnLabel: true } },
    },
    textDocument: { synchronization: { dynamicRegistration: false }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'refactor.rewrite'] } } } },
  },
});
conn.sendNotification('initialized', {});
console.log(`recording with ${bin} (${init.serverInfo?.name ?? 'parley'} ${init.serverInfo?.version ?? ''})`);

// Let the first index run finish (its progress is recorded separately).
log = { events: [], progress: [], applyEdits: [], approvals: [] };
await waitFor((k, v) => k === 'progress' && String(v.token).startsWith('parley/index/') && v.value.kind === 'end', 30000).catch(() => undefined);
const indexProgress = log.progress;
conn.sendNotification('textDocument/didOpen', { textDocument: { uri: cartURI, languageId: 'go', version: 1, text: cartGo } });

// ---- normalisation ----

const sessionIds = new Map();
function normalize(v) {
  let s = JSON.stringify(v);
  s = s.split(pathToFileURL(ws).href).join(pathToFileURL(STABLE_ROOT).href).split(ws).join(STABLE_ROOT);
  s = s.split(tmp).join('/tmp/parley');
  s = s.replace(/\d{8}-\d{6}\.\d{3}-[0-9a-f]{6}/g, (id) => {
    if (!sessionIds.has(id)) {
      sessionIds.set(id, `20261122-0513${String(10 + sessionIds.size).padStart(2, '0')}.000-5e55${String(sessionIds.size).padStart(2, '0')}`);
    }
    return sessionIds.get(id);
  });
  s = s.replace(/"(created|updated|lastRun|time)":"[^"]+"/g, '"$1":"2026-11-22T10:15:04Z"');
  s = s.replace(/ in \d+\.\d+s"/g, ' in 0.01s"');
  return JSON.parse(s);
}

function write(name, fixture) {
  const file = path.join(out, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(normalize(fixture), null, 2) + '\n');
  console.log(`wrote ${path.relative(ext, file)}: ${fixture.events?.length ?? 0} events`);
}

/** Runs one parley/chat turn and records what the editor saw. */
async function record(name, description, steps, params, opts = {}) {
  model.script(steps);
  log = { events: [], progress: [], applyEdits: [], approvals: [] };
  approvalAnswer = opts.answer ?? 'Allow once';
  const cts = new rpc.CancellationTokenSource();
  if (opts.cancelWhen) {
    void waitFor(opts.cancelWhen).then(() => setTimeout(() => cts.cancel(), opts.cancelAfterMs ?? 300));
  }
  let result = null;
  let error = null;
  try {
    result = await conn.sendRequest('parley/chat', params, cts.token);
  } catch (e) {
    error = { code: e.code, message: e.message };
  }
  // "done" is sent just before the response; give late notifications a moment.
  await new Promise((r) => setTimeout(r, 50));
  const fixture = { description, request: { method: 'parley/chat', params }, events: log.events, result, error };
  if (log.applyEdits.length > 0) {
    fixture.applyEdits = log.applyEdits;
  }
  if (log.approvals.length > 0) {
    fixture.approvals = log.approvals;
  }
  fixture.progress = log.progress;
  write(name, fixture);
  return result;
}

const selection = { start: { line: 9, character: 0 }, end: { line: 16, character: 1 } };

// 1. A streamed markdown answer, with thinking.
const first = await record(
  'text-answer',
  'A question about the selection answered in markdown (thinking, streamed text, usage, done).',
  [
    {
      input: 1830,
      output: 164,
      blocks: [
        { thinking: 'The user selected Total. The fee is added once after the loop, so it is per order, not per item.' },
        {
          text:
            '`Total` adds the **delivery fee** once per order, after summing the items:\n\n' +
            '1. the loop adds each `it.Price`\n2. `return sum + fee` adds the fee at the end\n\n' +
            'Note that the loop ignores `Qty`, so two of the same item count once:\n\n' +
            '```go\nfor _, it := range items {\n\tsum += it.Price * it.Qty\n}\n```\n\n' +
            'See [the Go spec on for statements](https://go.dev/ref/spec#For_statements).',
        },
      ],
    },
  ],
  { message: 'Why does Total add the fee?', context: { uri: cartURI, range: selection, diagnostics: [] } },
);

// 2. Tool calls, results and an edit the editor confirms, in the same session.
await record(
  'tool-edit',
  'Continues the session: read_file, then edit_file (applied through workspace/applyEdit with a change annotation that needs confirmation), then an answer.',
  [
    { input: 2100, output: 60, blocks: [{ text: "I'll read the file first." }, { tool: 'read_file', input: { path: 'cart/cart.go' } }] },
    {
      input: 2600,
      cached: 1800,
      output: 120,
      blocks: [
        { text: 'Now multiply by the quantity.' },
        { tool: 'edit_file', input: { path: 'cart/cart.go', old_string: '\t\tsum += it.Price\n', new_string: '\t\tsum += it.Price * it.Qty\n' } },
      ],
    },
    { input: 2900, cached: 2400, output: 70, blocks: [{ text: 'Done: `Total` now multiplies each price by `Qty`. Review the change in the preview, then save.' }] },
  ],
  { session: first?.session, message: 'Fix it so Qty counts.', context: { uri: cartURI } },
);

// 3. A turn cancelled while a shell command runs (after its approval).
await record(
  'cancelled',
  'A shell command asked with window/showMessageRequest (Allow once), then the request cancelled with $/cancelRequest while it runs.',
  [{ input: 1500, output: 40, blocks: [{ text: 'Running the tests.' }, { tool: 'shell', input: { command: 'sleep 30 && go test ./...' } }] }],
  { message: 'Run the tests' },
  { cancelWhen: (k, v) => k === 'approvals', cancelAfterMs: 500 },
);

// 4. A turn that fails: the model API refuses the request.
await record(
  'error',
  'The model API answers 400: an error event, then done with stopReason "error".',
  [{ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'model: fake-missing is not available' } } }],
  { message: 'Add tests for Total' },
);

// Sessions: the list and the first session's history.
const sessions = await conn.sendRequest('parley/sessions', {});
const history = first ? await conn.sendRequest('parley/session', { session: first.session }) : null;
const status = await conn.sendRequest('parley/indexStatus', {});
write('sessions', { description: 'parley/sessions, then parley/session for the first session, and parley/indexStatus.', sessions, history, indexStatus: status, indexProgress });

// 5. parley/compact on the first session (after the sessions fixture, which
// shows it uncompacted): the compaction event, the result, and the history
// parley/session returns afterwards (the summary message, `compactions`).
if (first) {
  model.script([{ input: 900, output: 120, blocks: [{ text: 'The user asked why Total adds the fee, then had it multiply each price by Qty (cart/cart.go, edited and confirmed).' }] }]);
  log = { events: [], progress: [], applyEdits: [], approvals: [] };
  const params = { session: first.session, focus: 'the Qty fix' };
  const result = await conn.sendRequest('parley/compact', params);
  await new Promise((r) => setTimeout(r, 50));
  const after = await conn.sendRequest('parley/session', { session: first.session });
  write('compact', {
    description: 'parley/compact with a focus on the two-turn session: the model summarises all but the last exchange; the compaction event (no done), the result, then parley/session.',
    request: { method: 'parley/compact', params },
    events: log.events,
    result,
    error: null,
    progress: log.progress,
    history: after,
  });
}

// 6. Hooks, last so that the other fixtures do not show its session: grep
// blocked by the user's hook, the workspace's hook refused (not approved),
// then glob's hook ends the turn (stopReason "hook").
await record(
  'hook',
  "PreToolUse hooks: the user's blocks grep (exit 2; the result carries the reason), the workspace's is refused (not approved), and the user's glob hook answers continue:false, which ends the turn with stopReason \"hook\".",
  [{ input: 1400, output: 50, blocks: [{ text: 'Searching.' }, { tool: 'grep', input: { pattern: 'fee' } }, { tool: 'glob', input: { pattern: '**/*.go' } }] }],
  { message: 'Where is the fee used?' },
);

await conn.sendRequest('shutdown');
conn.sendNotification('exit');
await new Promise((r) => proc.once('exit', r));
await model.close();
fs.rmSync(tmp, { recursive: true, force: true });
