// Package nav is navigation from a position: the one order of attempts
// for definition, declaration and references that the language server,
// `parley defs/refs FILE:LINE:COL` and the agent's find_definition and
// find_references share (Definitions, DeclarationAt, References): a
// local of the buffer (index/locals), a declaration resolved from syntax
// (index/python, index/typescript), what a Go buffer alone settles, the
// one declaration the syntax settles (the Go resolution of package
// index), and last the name ranking or every occurrence of the name.
//
// The callers keep only their time budgets and presentation: a caller
// with a budget passes Options.Budget, which runs each resolution from
// syntax and may give up on it (the attempt is then skipped), and
// Options.Settle, called before reading other files' records; CLI and
// tools pass a SourceReader and wait. CancelResolutions,
// ResumeResolutions, ResolveGen and CancelledSince control the
// resolutions of one store (a late one the server no longer wants);
// WarmSyntax parses an opened document ahead of the requests.
//
// nav also knows every language's index-time describers (Describers):
// Open opens a store with them, which is how the server, the CLI and the
// tools open theirs. Its functions are safe for concurrent use; the
// resolutions of one store run one at a time (index/syntax.Cache).
package nav
