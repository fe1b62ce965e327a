// Package vector is parley's vector store: named indices of vectors with
// text and metadata, searched by cosine similarity, exactly (a scan) when
// an index has at most ef·2M vectors (128,000 at the defaults) and
// through an HNSW graph (hnsw.go, parley's own) above that, kept in a
// Pebble database the caller owns (the memory store's) under one key
// prefix.
//
// # Durability
//
// The Pebble records are the truth; the HNSW graph is derived from them.
// Each write (vectors with their sequence entries and the index's info
// record) is one synced Pebble batch, so a crash (kill -9) loses at most
// the write in flight and never leaves a vector half-stored. Every stored
// version of a vector gets a fresh sequence number, which is its key in
// the graph; the live sequence numbers are kept as small 's' records.
// A write is done when its batch is committed; its vectors then wait in
// the index's pending tail, which searches scan exactly, until a builder
// goroutine inserts them into the graph (builder.go), so writes cost
// record writes, not graph inserts, and search results are right at any
// moment. When an index is first used, its graph is read from its last
// snapshot (a checksummed file, written to a temporary name, synced and
// renamed) and brought up to date: live vectors missing from it form the
// pending tail, and graph nodes that are no longer live are tombstones,
// skipped by searches and dropped by a rebuild once they pass a quarter
// of the graph. A missing or damaged snapshot only costs a rebuild from
// the records. Snapshots are written on Close (which stops the builder
// after its batch in flight, leaving the rest of a tail to the next
// Open) and after SnapshotEvery inserts (or a quarter of the index, when
// that is more).
//
// # Key layout (after the caller's prefix byte P)
//
//	P 'i' name                -> JSON Info
//	P 'v' name 0x00 id(8)     -> seq(8) | uvarint dim | dim float32 LE | JSON {text, metadata}
//	P 's' name 0x00 seq(8)    -> id(8)
//	P 'e' …                   (formerly an unbounded embedding cache; memory's bounded one deletes it)
//
// Index names are 1-64 of [a-z0-9_.-], so they never contain 0x00.
//
// Contracts: a DB is safe for concurrent use (one mutex, which the
// builder takes only to pick up and to commit a batch); vectors are
// stored unit-length and scores are cosine similarities in [-1, 1];
// errors matching ErrInvalid or ErrNotFound are the caller's mistakes.
// The caller must Close the DB before closing the Pebble database.
package vector
