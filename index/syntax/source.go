package syntax

// Navigation from a position: what the language server's definition,
// references and documentHighlight answer, and what `parley defs/refs
// FILE:LINE:COL` and the agent's find_definition/find_references (with a
// path, line and column) answer the same way, from one implementation.
// src is the content of the root-relative file from as the caller sees it
// (an editor's unsaved buffer, or the file on disk).
//
// Python, TypeScript and JavaScript resolve from the syntax of several
// files (nav.SyntaxTargetAt) through descriptors stored at index time:
// references parse nothing, definitions at most an edited buffer (and, in
// TypeScript, for a call of an overloaded function, the file declaring
// it, whose signature the arguments pick); the other tree-sitter
// languages' locals resolve from the buffer's syntax (nav.LocalAt). The
// functions taking a SourceReader resolve them when it is not nil and
// wait as long as that takes (the CLI and the tools). The language server
// passes nil and runs nav.LocalAt, nav.SyntaxTargetAt and nav.SyntaxReferences itself
// first, within its resolve budget, falling back to these functions' name ranking when the
// budget runs out; it also leaves out the Python references marked
// Uncertain, which the CLI and the tools show marked.

// SourceReader returns the content of a root-relative file of the store as
// the caller sees it (open buffers first, or the disk).
type SourceReader func(rel string) ([]byte, error)
