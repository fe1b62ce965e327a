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
// the user everywhere) live in a user-level store of the same shape.
//
// Every process of the user shares the stores: the language server, any
// number of terminal chats and CLI commands. A Store holds nothing between
// operations; each operation takes the directory's lock (internal/dirlock,
// flock), waiting up to LockTimeout while another process's operation
// runs, opens Pebble (read-only for reads), works, flushes a write and
// closes. Memory is used at human pace, so the cost is affordable: about
// 1 ms per read and 17-30 ms per synced write on this project's CI
// machine (BenchmarkOpen, BenchmarkAdd), against holding the store in
// one process and serving the others over a socket, whose owner can exit
// at any time.
//
// Contracts:
//   - A Store is safe for concurrent use, and several Stores (in one or
//     several processes) on the same directory are too: operations are
//     serialised by the directory lock, each sees every write committed
//     before it started, and an operation that cannot get the lock within
//     LockTimeout fails with an error matching ErrLocked, naming the
//     holder's pid.
//   - Every write (a record with its postings and the corpus stats) is one
//     synced Pebble batch, so a crash never leaves a record without its
//     index entries or the reverse.
//   - The BM25 index is maintained incrementally by Add, Update and Forget
//     (a term's postings in blocks, keys.go and postings.go); Recall reads
//     the postings of the query's terms only, scores every memory holding
//     one exactly, and never rebuilds anything.
//   - Memories are user data that cannot be rebuilt: a store written with
//     another schema version is refused at open, never wiped.
//   - The vector indices (Vectors: the vector_db_* tools' indices and the
//     memories' embeddings) are the exception: their graphs live in
//     memory, so the first Store to use them holds them until Close, and
//     another gets ErrLocked (recall is then lexical and says so).
//   - The caller must Close the store; operations on a closed Store fail.
package memory
