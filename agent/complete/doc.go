// Package complete is inline completion: what the editor shows as ghost
// text at the cursor. It builds a fill-in-the-middle request from the
// buffer and the index (Build: the prefix and suffix cut at line
// boundaries, then the declarations the cursor needs as the index
// resolves them, the user's recent edits and a lexical fallback, within
// a token budget, each snippet saying where it comes from and why), asks
// a fim.Model, and cleans the answer (Clean: overlap with the suffix,
// balanced brackets, the end of the enclosing block).
//
// Engine puts it together for the language server and the CLI: it
// decides what a request deserves (nothing inside a comment or a string
// unless invoked, nothing for a disabled language), debounces automatic
// requests, cancels a document's superseded request before it reaches
// the model and aborts one already sent, never holds more than one model
// request per document, reuses the last completion while the user types
// through it, and counts what it shows and what is accepted (Stats).
// Warm (Engine.Warm, when a document is opened) builds ahead of the first
// request what Build would otherwise read at a keystroke.
//
// Contracts: an Engine is safe for concurrent use; its Complete honours
// its context. Build and Clean are pure functions of their input and the
// store's state.
package complete
