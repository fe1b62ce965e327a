// Package ledger is the re-read ledger of one agent session: for every file
// the model has been shown, it remembers exactly which content (by hash,
// never by mtime) and which lines of it, at which turn, so that a re-read
// can answer with less than the whole file:
//
//   - the same content and lines already seen: a one-line "unchanged" stub;
//   - content changed since a whole-file read: a unified diff against what
//     the model saw, when the diff is smaller than the file and not too
//     fragmented (see DiffGate), else the file again;
//   - content the agent's own edit produced from a version the model had
//     seen whole: a certificate (new hash and the changed line ranges with
//     a little context) the first time, a stub after that.
//
// A file the model never saw in the session gets the complete text, or,
// for a whole-file read of a large file, the outline the caller offers
// (OutlineElisions: function bodies, multi-line values and the rest of
// long comments elided; every import, declaration and signature kept); a read with Full set
// always gets the text. After an outline, Elided tells the edit tools
// which lines the model has not seen, and Shown (get_symbol) and line-range
// reads fill them in. The terminal, the language server and `parley
// read` all go through the read_file tool, which owns one Ledger per
// session (tools.Env.Ledger); the editor's FileView returns unsaved buffer
// text, so "what the model saw" and "now" are buffer versions there.
//
// A ledger is bounded (prune.go): at most MaxFiles files and
// MaxContentBytes of their content, the files shown longest ago forgotten
// first; a Store that is a Rewriter has its log rewritten as one record
// per file plus the token totals once it holds many more records than
// files.
//
// Contracts: a Ledger is safe for concurrent use. Read has no side
// effects; Record makes a read part of the ledger (and of its Store).
// Forget must be called when the model's context loses earlier tool
// results (compaction), since a stub only helps a model that still has the
// text it points at. Records are additive: each holds the whole state of
// one path after it, so replaying them in order rebuilds the ledger.
package ledger
