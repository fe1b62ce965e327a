// Package acp serves the coding agent over the Agent Client Protocol
// (agentclientprotocol.com), for Zed, JetBrains IDEs and Neovim's
// CodeCompanion: `parley acp` speaks it on stdio. It is a thin adapter over
// the shared agent core, built on the protocol's Go SDK
// (github.com/coder/acp-go-sdk), which frames the JSON-RPC messages, routes
// session/cancel to the running prompt's context and answers unknown
// methods with "method not found".
//
// What maps to what:
//   - session/new and session/load open the workspace of the session's cwd
//     (Options.Open: configuration, model, index, session store, memory)
//     and start the MCP servers the client passes, through tools/mcpclient
//     like configured ones. session/load replays a stored parley session's
//     history as session/update notifications.
//   - A workspace that cannot open for want of an API key
//     (config.ErrNoKey) is answered with auth_required (-32000).
//     initialize's authMethods say where parley reads a key from (each
//     environment variable, the user config file) and authenticate
//     checks that one is there now (auth.go); no key crosses the protocol.
//   - session/prompt runs one agent.Run; its events become session/update
//     notifications (updates.go): message and thought chunks, tool calls
//     with kind, title, locations and status (pending, in_progress,
//     completed, failed), the diff of every applied edit, and a plan after
//     each todo_write. The turn's stop reason is the response's.
//   - Prompt commands (package prompts: .parley/commands and the user's)
//     are advertised with available_commands_update after session/new and
//     session/load, and again at a prompt when the files changed; a
//     prompt "/NAME args" naming one runs its expansion with its model and
//     tools (commands.go). A refused one is said as the turn's answer.
//   - The permission policy is the terminal's (modes, rules, "allow for
//     this session"); its questions become session/request_permission
//     (approve.go) with allow once / allow always / reject; an edit is
//     asked about once its change is computed, with its diff (gate.go).
//     The session modes are the permission modes; session/set_mode
//     switches them.
//   - When the client offers fs.readTextFile / fs.writeTextFile, the agent
//     reads and edits through the client, so unsaved buffers are what it
//     sees and changes (files.go). When it offers terminal, the shell tool
//     runs its commands in client terminals (terminal.go, a
//     tools.ShellRunner), after the same parsing, judging and approval.
//
// Contracts: nothing the client sends panics the process (a handler that
// panics answers with an internal error); configuration and API keys never
// reach the client; a session runs one prompt at a time (a new one
// cancels the running one, the SDK's rule, and waits for it); every
// request read is answered before Serve returns, even when the client
// closed its end right after sending it (drain.go). Safe for concurrent
// use: the SDK calls handlers concurrently.
package acp
