// The official ACP TypeScript client driving `parley acp` as an editor
// would: run by e2e_test.go (make acp-e2e) with PARLEY_BIN, WORKSPACE and
// the fake model's settings in the environment. Each step checks what the
// editor saw; a failed check exits non-zero with the reason on stderr.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import fs from "node:fs";
import path from "node:path";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";

const bin = process.env.PARLEY_BIN;
const root = process.env.WORKSPACE;
// The key of the sign-in steps and the fake model that wants it: parley
// never sees them until a step hands them over.
const { AUTH_KEY: authKey, AUTH_API_URL: authURL, ...agentEnv } = process.env;
const fileA = path.join(root, "a.txt");
const fileNew = path.join(root, "new.txt");

// One editor: buffers, what it was asked and what it received.
function editor() {
  const ed = {
    buffers: new Map([[fileA, "unsaved buffer\n"]]),
    writes: [],
    asked: [],
    answer: "allow_once",
    updates: [],
    waiters: [],
  };
  ed.changed = () => {
    for (const w of ed.waiters.splice(0)) w();
  };
  ed.until = async (what, ok) => {
    const deadline = Date.now() + 20000;
    while (!ok(ed.updates)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => {
        ed.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return ed;
}

// withAgent launches `parley acp` the way an editor does, with env, and
// connects the SDK's client to it; op runs with the client context and
// the initialize response.
async function withAgent(ed, op, env = agentEnv) {
  const child = spawn(bin, ["acp"], { cwd: root, stdio: ["pipe", "pipe", "inherit"], env });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const app = acp
    .client({ name: "parley-e2e" })
    .onRequest("fs/read_text_file", ({ params }) => {
      if (ed.buffers.has(params.path)) return { content: ed.buffers.get(params.path) };
      return { content: fs.readFileSync(params.path, "utf8") };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      ed.writes.push(params);
      ed.buffers.set(params.path, params.content);
      return {};
    })
    .onRequest("session/request_permission", ({ params }) => {
      ed.asked.push(params);
      return { outcome: { outcome: "selected", optionId: ed.answer } };
    })
    .onNotification("session/update", ({ params }) => {
      ed.updates.push(params.update);
      ed.changed();
    });
  await app.connectWith(stream, async (ctx) => {
    const init = await ctx.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      clientInfo: { name: "parley-e2e", version: "1" },
    });
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities.loadSession, true);
    assert.equal(init.agentCapabilities.promptCapabilities.image, true);
    assert.equal(init.agentInfo.name, "parley");
    await op(ctx, init);
  });
  child.stdin.end();
  const { code, signal } = await exited;
  assert.equal(code, 0, `parley acp exited with ${code} ${signal ?? ""}`);
}

const agentText = (updates) =>
  updates
    .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text")
    .map((u) => u.content.text)
    .join("");
const callUpdates = (updates, id) => updates.filter((u) => u.toolCallId === id);
const statuses = (updates, id) =>
  callUpdates(updates, id)
    .filter((u) => u.sessionUpdate === "tool_call_update" && u.status)
    .map((u) => u.status);
const text = (t) => [{ type: "text", text: t }];

let sessionId;

// A full turn: a read and an edit through the editor's fs, the edit allowed
// when asked; a write rejected when asked; a turn cancelled mid-answer.
const ed1 = editor();
await withAgent(ed1, async (ctx) => {
  const sess = await ctx.request("session/new", { cwd: root, mcpServers: [] });
  sessionId = sess.sessionId;
  assert.equal(sess.modes.currentModeId, "default");
  // The workspace's prompt commands are advertised once the session exists.
  await ed1.until("the prompt commands", (u) => u.some((x) => x.sessionUpdate === "available_commands_update"));
  assert.deepEqual(
    ed1.updates.find((x) => x.sessionUpdate === "available_commands_update").availableCommands,
    [{ name: "review", description: "Review a file", input: { hint: "FILE" } }],
  );
  ed1.updates.length = 0;

  let resp = await ctx.request("session/prompt", { sessionId, prompt: text("read and edit a.txt") });
  assert.equal(resp.stopReason, "end_turn");
  // The SDK may hand the response over before the last updates' handlers
  // ran (it dispatches notifications asynchronously).
  await ed1.until("the turn's last updates", (u) => agentText(u) === "edited it");
  const read = callUpdates(ed1.updates, "call_1_0");
  assert.equal(read[0].sessionUpdate, "tool_call");
  assert.equal(read[0].kind, "read");
  assert.deepEqual(read[0].locations, [{ path: fileA }]);
  assert.deepEqual(statuses(ed1.updates, "call_1_0"), ["in_progress", "completed"]);
  assert.equal(ed1.asked.length, 1, "the edit was asked about once");
  assert.equal(ed1.asked[0].toolCall.toolCallId, "call_2_0");
  assert.equal(ed1.asked[0].toolCall.content[0].oldText, "unsaved buffer\n");
  assert.deepEqual(
    ed1.asked[0].options.map((o) => o.kind),
    ["allow_once", "allow_always", "reject_once"],
  );
  assert.deepEqual(statuses(ed1.updates, "call_2_0"), ["in_progress", "completed"]);
  const diff = callUpdates(ed1.updates, "call_2_0")
    .flatMap((u) => u.content ?? [])
    .find((c) => c.type === "diff");
  assert.deepEqual(
    { path: diff?.path, oldText: diff?.oldText, newText: diff?.newText },
    { path: fileA, oldText: "unsaved buffer\n", newText: "edited buffer\n" },
  );
  assert.deepEqual(ed1.writes, [{ sessionId, path: fileA, content: "edited buffer\n" }]);
  assert.equal(fs.readFileSync(fileA, "utf8"), "on disk\n", "the edit reached the disk, not the buffer");
  assert.equal(agentText(ed1.updates), "edited it");

  ed1.answer = "reject_once";
  ed1.updates.length = 0;
  resp = await ctx.request("session/prompt", { sessionId, prompt: text("write new.txt") });
  assert.equal(resp.stopReason, "end_turn");
  await ed1.until("the turn's last updates", (u) => agentText(u) === "the write was refused");
  assert.equal(ed1.asked.length, 2);
  assert.deepEqual(statuses(ed1.updates, "call_4_0"), ["in_progress", "failed"]);
  assert.deepEqual(
    ed1.asked[1].toolCall.content.map((c) => [c.type, c.path, c.newText]),
    [["diff", fileNew, "x\n"]],
    "the question comes with the diff",
  );
  assert.equal(fs.existsSync(fileNew), false, "a rejected write ran");

  ed1.updates.length = 0;
  const running = ctx.request("session/prompt", { sessionId, prompt: text("take your time") });
  await ed1.until("the first chunk of the answer", (u) => agentText(u) !== "");
  await ctx.notify("session/cancel", { sessionId });
  resp = await running;
  assert.equal(resp.stopReason, "cancelled");
});

// A new editor process resumes the session: its history is replayed and
// the conversation goes on.
const ed2 = editor();
await withAgent(ed2, async (ctx) => {
  await ctx.request("session/load", { sessionId, cwd: root, mcpServers: [] });
  await ed2.until("the replayed history", (u) => agentText(u).endsWith("the write was refused"));
  const user = ed2.updates
    .filter((u) => u.sessionUpdate === "user_message_chunk")
    .map((u) => u.content.text)
    .join("\n");
  assert.match(user, /read and edit a\.txt/);
  assert.match(agentText(ed2.updates), /edited it/);
  assert.deepEqual(statuses(ed2.updates, "call_2_0"), ["completed"]);
  ed2.updates.length = 0;
  const resp = await ctx.request("session/prompt", { sessionId, prompt: text("and now?") });
  assert.equal(resp.stopReason, "end_turn");
  await ed2.until("the answer", (u) => agentText(u) === "resumed answer");
});

// A prompt command typed as the editor sends it: expanded by parley, its
// @file read through the editor (the unsaved buffer).
const ed5 = editor();
await withAgent(ed5, async (ctx) => {
  const sess = await ctx.request("session/new", { cwd: root, mcpServers: [] });
  const resp = await ctx.request("session/prompt", { sessionId: sess.sessionId, prompt: text("/review a.txt") });
  assert.equal(resp.stopReason, "end_turn");
  await ed5.until("the answer", (u) => agentText(u) === "reviewed");
  // An image for a model without vision is refused before any model call.
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  const image = { type: "image", mimeType: "image/png", data: png };
  await assert.rejects(ctx.request("session/prompt", { sessionId: sess.sessionId, prompt: [...text("what is this?"), image] }), (e) => {
    assert.equal(e.code, -32602, `error ${JSON.stringify(e)}`);
    assert.match(JSON.stringify(e.data), /model fake-model does not accept images/);
    return true;
  });
});

// An editor without a key, against a hosted-style provider that needs one:
// initialize lists where parley reads a key from, session/new answers
// auth_required, authenticate says what is missing until the key is in
// the user config file, and then a session talks to the model with it.
const userFile = path.join(process.env.XDG_CONFIG_HOME, "parley", "config.json");
const noKeyEnv = { ...agentEnv, PARLEY_PROVIDER: "openai", PARLEY_API_URL: authURL };
const authFails = (code, ...parts) => (e) => {
  assert.equal(e.code, code, `error ${JSON.stringify(e)}`);
  const msg = JSON.stringify(e.data);
  for (const p of parts) assert.ok(msg.includes(p), `${msg} lacks ${p}`);
  assert.ok(!msg.includes(authKey), "an error shows the key");
  return true;
};
const ed3 = editor();
await withAgent(
  ed3,
  async (ctx, init) => {
    const methods = Object.fromEntries(init.authMethods.map((m) => [m.id, m]));
    assert.deepEqual(Object.keys(methods).sort(), [
      "config-file",
      "env:ANTHROPIC_API_KEY",
      "env:GEMINI_API_KEY",
      "env:GOOGLE_API_KEY",
      "env:OPENAI_API_KEY",
      "env:PARLEY_API_KEY",
    ]);
    for (const m of init.authMethods) assert.ok(m.name && m.description, `${m.id} lacks a name or description`);
    assert.ok(methods["config-file"].description.includes(userFile), "the config-file method names the file");

    await assert.rejects(
      ctx.request("session/new", { cwd: root, mcpServers: [] }),
      authFails(-32000, "PARLEY_API_KEY"),
    );
    await assert.rejects(
      ctx.request("authenticate", { methodId: "env:PARLEY_API_KEY" }),
      authFails(-32000, "PARLEY_API_KEY is not set", "restart"),
    );
    await assert.rejects(ctx.request("authenticate", { methodId: "config-file" }), authFails(-32000, userFile));
    await assert.rejects(ctx.request("authenticate", { methodId: "oauth" }), authFails(-32602, "env:PARLEY_API_KEY"));

    fs.mkdirSync(path.dirname(userFile), { recursive: true });
    fs.writeFileSync(userFile, JSON.stringify({ api_key: authKey }), { mode: 0o600 });
    await ctx.request("authenticate", { methodId: "config-file" });
    const sess = await ctx.request("session/new", { cwd: root, mcpServers: [] });
    const resp = await ctx.request("session/prompt", { sessionId: sess.sessionId, prompt: text("hello") });
    assert.equal(resp.stopReason, "end_turn");
    await ed3.until("the answer", (u) => agentText(u) === "signed in");
  },
  noKeyEnv,
);
fs.rmSync(userFile);

// The editor restarts parley with the key in its environment, as the env
// methods ask.
const ed4 = editor();
await withAgent(
  ed4,
  async (ctx) => {
    await ctx.request("authenticate", { methodId: "env:PARLEY_API_KEY" });
    const sess = await ctx.request("session/new", { cwd: root, mcpServers: [] });
    const resp = await ctx.request("session/prompt", { sessionId: sess.sessionId, prompt: text("hello again") });
    assert.equal(resp.stopReason, "end_turn");
    await ed4.until("the answer", (u) => agentText(u) === "signed in again");
  },
  { ...noKeyEnv, PARLEY_API_KEY: authKey },
);

console.log("acp e2e: ok");
