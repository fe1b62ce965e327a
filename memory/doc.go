// Package memory is parley's long-term memory: records the agent (or the
// user) chose to keep across sessions, such as facts, preferences,
// decisions, code patterns and error/solution pairs, with a lexical (BM25)
// index kept in the same embedded Pebble store. With an embeddings
// endpoint (memory/embed) recall is hybrid: BM25 fused with the cosine
// similarity of the memories' embeddings, kept in the store's vector
// indices (memory/vector, Store.Vectors; see hybrid.go).
//
// A Store lives in its own directory. A workspace's memories live under the
// workspace's data directory; user-global memories (preferences that follow
// the user everywhere) live in a user-level store of the same shape. Only
// one process may have a store open at a time (internal/dirlock); a second
// one gets an error matching ErrLocked.
//
// Contracts:
//   - A Store is safe for concurrent use; writes are serialised by a mutex
//     and every write (a record with its postings and the corpus stats) is
//     one synced Pebble batch, so a crash never leaves a record without its
//     index entries or the reverse.
//   - The BM25 index is maintained incrementally by Add, Update and Forget;
//     Recall reads the postings of the query's terms only and never
//     rebuilds anything.
//   - Memories are user data that cannot be rebuilt: a store written with
//     another schema version is refused at open, never wiped.
//   - The caller must Close the store.
package memory
