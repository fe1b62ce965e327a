// Package syntax holds what the tree-sitter name resolvers share
// (index/python, index/typescript, index/locals), under neutral names: a
// resolved declaration (Target), a parsed file (File), the per-store tree
// cache (Cache) with its cancellation, the state of one resolution
// (Resolver) with its step and parse budgets, the values expressions
// evaluate to (Value, Class), the table index-time describers build
// (DescTable), the decoding of stored descriptor records (LoadIdx), and
// the judge of references by descriptors (Refs), into which each
// language plugs its own rules (RefsLang).
//
// Contracts:
//   - A store's Cache (CacheOf) lives as long as the store (it is
//     attached to it: index.Store.Attach). One resolver holds it at a
//     time: NewResolver waits for it and the caller must call Release;
//     Lock and Unlock bracket any other use (index/locals' parses).
//     gotreesitter trees are not safe for concurrent reads, which is why
//     resolution is serialised per store. Cancel, Resume, ResolveGen and
//     CancelledSince are safe for concurrent use at any time.
//   - A File's tree belongs to the cache: it is valid while the resolver
//     that got it holds the cache, and must not be released by callers.
//   - A Resolver, a Refs and their values are used by one goroutine.
//
// syntax imports index (the store it reads) and no resolver package;
// the language packages import it, never each other.
package syntax
