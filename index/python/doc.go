// Package python resolves Python names from syntax: at index time its
// describer (Describe, passed to the store through index.Config) writes
// for every occurrence a descriptor of what it binds to, and at query
// time Definitions evaluates the descriptor of a use against the index
// (parsing nothing when the buffer is the content the index holds, else
// the buffer alone), while RefsLang tells the shared references judge
// (syntax.References) how Python imports and modules bind names. The
// scope rules (scope.go) are one copy, used by both.
//
// Every entry takes the store's tree cache for its duration
// (syntax.NewResolver), so calls on one store are serialised; they are
// safe for concurrent use. Describe is a pure function, safe for
// concurrent use by the indexer. It imports index and index/syntax, no
// other resolver.
package python
