// Package lspclient is parley's own LSP client: it starts the language
// servers of the configuration (config.LSPServers: gopls, pyright,
// typescript-language-server when on PATH, or the user's) so the agent
// sees the diagnostics of its edits where no editor shows them, in
// `parley chat`, `parley loop` and `parley acp`. A Manager is a
// tools.DiagnosticSource.
//
// Lifecycle. A server starts on the first file of its languages the agent
// edits or asks about, one per workspace root and server, initialised
// with that root and asked for publishDiagnostics with versions. Files
// are opened with the agent's text and changed with whole-text didChange
// notifications; the server never reads the agent's files from disk
// first. Close shuts every server down (shutdown, exit, then a kill after
// a timeout). A server that fails to start, exits or stops answering is
// reported through Options.Warn and started again on a later use (after
// a backoff, so a broken one does not cost every edit its start-up
// timeout); it never fails an edit.
//
// Settling. After a change, Diagnose waits until the server has
// published diagnostics for the document's new version (servers that
// publish without versions: any publication after the change), then a
// short quiet period for a second publication of the same version,
// bounded by Options.Timeout; a file that did not settle is reported as
// such with what the server had published.
//
// Concurrency. A Manager is safe for concurrent use; its servers'
// notifications are handled on each connection's read goroutine.
package lspclient
