// Package lsp is parley's language server: it serves the workspace index
// to editors over LSP 3.18 (go.lsp.dev/protocol and jsonrpc2).
//
// Shape. Handlers are thin: they resolve the document, wait until the
// index has caught up with the editor's buffer, and call plain functions
// of index/ and workspace/. One file per method family.
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
// shutdown then exit, 1 otherwise. Each workspace folder owns an index
// store that Serve closes on the way out.
package lsp
