// Package mentions resolves @-mentions: what a user points the agent at
// in a chat message (a file, a symbol, the current diagnostics, the
// working tree's changes, the editor's selection, a web page), in every
// front end (the editor chats through parley/chat, parley chat, parley
// acp's resource links, parley loop's prompt) and for prompt commands'
// @file references (package prompts).
//
// Three jobs:
//   - Parse finds mentions typed inline: "@" at the start of a word
//     followed by a path, a symbol name, "diagnostics", "changes",
//     "selection" or "url:ADDR". Nothing it is given makes it panic; an
//     address like a@b.c is not a mention.
//   - Resolver.Expand turns the mentions of a message (the ones a picker
//     sent, structured, and the ones typed inline) into context text for
//     the model and one Report per mention (label, token count or error)
//     for the user. Every read goes through the agent's own tools, as the
//     model's call would (read_file, get_symbol, get_diagnostics,
//     git_diff, git_status, fetch_url): judged by the permission policy,
//     through the turn's file view (unsaved buffers, the ACP client's
//     files), and recorded in the session's re-read ledger for the turn
//     about to run, so a later read_file of an unchanged file answers with
//     a stub. Each expansion is bounded in tokens (internal/tokcount) and
//     the message as a whole too; a mention that fails is reported with
//     its error and adds nothing. An inline word that is neither an
//     existing file nor a symbol's exact name stays plain text, silently
//     (@Override, @team).
//   - Candidates answers a picker (parley/mentionCandidates, the REPL's
//     Tab): the special mentions whose name starts with the query, then
//     the index's files ranked by a fuzzy match, then workspace symbols.
//     The file list of a store is built once and kept with the store,
//     rebuilt only when its set of paths changed (index.Store.PathGen), so
//     a keystroke costs one scan of precomputed lower-case paths.
//
// The wire shapes (Mention, Item, Report) are the @-mention protocol of
// docs/protocol.md, shared by the editor clients; their JSON field names
// are fixed. A Resolver is used for one message; Candidates and FileList
// are safe for concurrent use.
package mentions
