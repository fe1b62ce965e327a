// Package lsp is parley's language server: it serves the workspace index
// to editors over LSP 3.18 (go.lsp.dev/protocol and jsonrpc2) and runs the
// agent for them (parley/chat, code actions).
//
// Shape. Handlers are thin: they resolve the document, wait until the
// index has caught up with the editor's buffer, and call plain functions
// of index/ and workspace/. One file per method family. Params the server
// decodes itself pass through luaObjects: Lua clients send an empty
// object as [].
//
// Ordering and concurrency. Notifications (didOpen, didChange, ...) run
// inline on the connection's read goroutine, in wire order, so a request
// that follows a change always sees it; they only update overlays and
// queue work. Requests run concurrently and are cancelled by
// $/cancelRequest. Every document change goes through one function,
// Server.modify, which updates the overlays and hands open documents to
// the folder's updater (a goroutine that re-extracts the newest buffer
// content into the store, a newer change cancelling older work) and
// everything else to a debounced incremental index run.
//
// Lifecycle. Requests before initialize get ServerNotInitialized; after
// shutdown, InvalidRequest. Background indexing starts after initialized
// and reports $/progress. Serve returns the process exit code: 0 after
// shutdown then exit, 1 otherwise. It returns on exit without waiting for
// the client to close the input stream (see Server.closeConn). Each
// workspace folder owns an index store that Serve closes on the way out,
// as it closes the session store.
//
// Memory. Everything the server keeps that grows with its input is bounded
// by bytes, least recently used first: converted disk files (fileCache,
// 64 MiB), non-ASCII lines (wideCache, 32 MiB), agent edits to closed
// files (pendingFiles, 64 MiB; past it a path is marked, not forgotten)
// and sessions in memory (agentHost, 64 MiB; running ones stay). Open
// documents' overlays and updater state are not caches: they mirror what
// the client has open and go when it closes them.
//
// The agent. A parley/chat request (or an agent command) runs one turn of
// the agent core on its own goroutine; turns of different sessions run
// concurrently, one session runs one turn at a time. The agent reads files
// through agentView (open buffers first) and changes them only through
// agentEditor, which sends workspace/applyEdit and never writes the disk;
// questions go to the user with window/showMessageRequest. The agent's
// configuration is built on first use and rebuilt after
// didChangeConfiguration; a turn keeps the configuration it started with.
// A chat message naming a prompt command (package prompts) is expanded
// once the turn's agent exists, so its @files are read like its
// read_file (prompts.go); parley/promptCommands lists the commands.
package lsp
