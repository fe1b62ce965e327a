// The official TypeScript SDK client against `parley mcp`, over stdio and
// streamable HTTP: list the tools, call each, check the results. Over stdio
// with --allow-memory-writes it remembers (and forgets) memories and
// writes vector indices (text embedded by the fake model server, and the
// workspace's manual.pdf); over HTTP, read-only, it recalls and searches
// what the stdio session stored.
// Usage: node client.mjs PARLEY_BINARY WORKSPACE
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [parley, ws] = process.argv.slice(2);
const readCalls = [
  ["read_file", { path: "a.go" }, "func Alpha()"],
  ["get_symbol", { name: "Beta" }, "return 1"],
  ["find_definition", { name: "Alpha" }, "a.go:3"],
  ["find_references", { name: "Beta" }, "a.go:3"],
  ["outline", { path: "a.go" }, "Alpha"],
  ["get_dependencies", { path: "a.go" }, ""],
  ["get_dependents", {}, ""],
  ["repo_map", { focus: ["a.go"], tokens: 500 }, "a.go"],
  ["recall_memories", { query: "Alpha calls Beta" }, "Alpha calls Beta for its result."],
  ["vector_db_list_indices", {}, "notes: 3 vectors"],
  ["vector_db_get_vector", { index_name: "notes", id: 1 }, "Beta returns one."],
  ["vector_db_search", { index_name: "notes", query: "what does Beta return", k: 1 }, "Beta returns one."],
];
const writeCalls = [
  ["remember", { content: "Alpha calls Beta for its result.", type: "fact" }, "Remembered as 1"],
  ["remember", { content: "A note to drop." }, "Remembered as 2"],
  ["forget_memory", { id: "2" }, "Forgot 2"],
  ["vector_db_create_index", { index_name: "points", dimension: 3 }, "Created index points"],
  ["vector_db_add_vector", { index_name: "points", vector: [1, 0, 0], text: "east" }, "Added vector 1"],
  ["vector_db_update_vector", { index_name: "points", id: 1, text: "east side" }, "Updated vector 1"],
  ["vector_db_delete_vector", { index_name: "points", id: 1 }, "Deleted vector 1"],
  ["vector_db_delete_index", { index_name: "points" }, "Deleted index points."],
  ["vector_db_add_text", { index_name: "notes", text: "Beta returns one." }, "Added the text to notes"],
  ["vector_db_add_chunked_text", { index_name: "notes", text: "Gamma waits for Delta.", source: "NOTES.md" }, "Added"],
  ["vector_db_add_pdf_document", { index_name: "notes", path: "manual.pdf" }, "Added manual.pdf"],
];

async function check(transport, label, calls) {
  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  const want = [...new Set(calls.map((c) => c[0]))].sort();
  if (JSON.stringify(names) !== JSON.stringify(want)) throw new Error(`${label}: tools ${names}, want ${want}`);
  for (const [name, args, want] of calls) {
    const res = await client.callTool({ name, arguments: args });
    const text = res.content.map((c) => c.text).join("");
    if (res.isError || !text.includes(want)) throw new Error(`${label}: ${name} gave ${JSON.stringify(res)}`);
  }
  const bad = await client.callTool({ name: "read_file", arguments: { path: "../../etc/passwd" } });
  if (!bad.isError) throw new Error(`${label}: a path outside the root was read`);
  await client.close();
  console.log(`${label}: ${names.length} tools ok`);
}

await check(new StdioClientTransport({ command: parley, args: ["mcp", "--root", ws, "--no-watch", "--allow-memory-writes"], env: process.env }), "stdio", [...writeCalls, ...readCalls]);

const server = spawn(parley, ["mcp", "--root", ws, "--no-watch", "--http", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise((resolve, reject) => {
  let buf = "";
  server.stderr.on("data", (d) => {
    buf += d;
    const m = buf.match(/serving (http:\/\/\S+)/);
    if (m) resolve(m[1]);
  });
  server.on("exit", (code) => reject(new Error(`parley mcp --http exited ${code}: ${buf}`)));
});
try {
  await check(new StreamableHTTPClientTransport(new URL(url)), "http", readCalls);
} finally {
  server.kill("SIGINT");
}
