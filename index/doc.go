// Package index keeps the persistent syntax index of one workspace root in
// an embedded Pebble store and answers queries from it.
//
// Open returns a Store; the caller must Close it, which flushes (the store
// has no write-ahead log: it is derived data) and releases the directory
// lock; a flush that cannot finish (the directory deleted, the disk full)
// is abandoned after a bound, with an error, so closing never hangs. A second process opening the same directory gets an error matching
// ErrLocked that names the holder's PID. A store written with another schema
// version is deleted and rebuilt rather than misread (Store.Rebuilt).
//
// Store.Index brings the store up to date with the files under a root (see
// indexer.go for the pipeline and bulk.go for how new files are loaded).
// Queries (SearchSymbols, Definitions, DefinitionContext, References,
// FileReferences, Symbols, Outline, Graph, Stats, Files, Header, Detail) are
// safe for concurrent use with each other and with a running Index; they
// see each file either entirely before or entirely after an update, never
// half of one. rank.go holds the one definition ranking (seen from a file)
// that every caller shares.
//
// RankUse (resolve.go) ranks the definitions of a name for a use in a Go
// file from the use's syntax (pkg.F through the file's imports, x.F, F in
// its own package). The resolvers themselves read the store and are not
// imported by it: index/golang (Go, from syntax alone: a member through
// the type of x, the references that can mean one declaration by the
// operand descriptors keys.go describes), index/python,
// index/typescript and index/locals; index/nav puts them together into
// the one order of attempts from a position that the language server,
// the CLI and the agent's tools share. What the syntax cannot settle
// falls back to the ranking by proximity, never to an error.
//
// The store knows no resolver: the index-time describers that write
// Python's and TypeScript's descriptors are passed in when it is opened
// (Config.Describers; index/nav.Open passes every language's), the
// resolvers keep their caches with it (Attach), and a cache of what
// queries read keeps its entries while WriteGen is unchanged.
//
// Writes are not concurrent: at most one Index run or Writer may be active
// on a Store at a time. keys.go documents the key layout.
package index
