// Package docs turns documents into searchable chunks of a vector index:
// text split into overlapping chunks at paragraph, sentence and word
// boundaries (chunk.go), PDF text extraction in pure Go (pdf.go), and
// ingest and hybrid search over an index of chunks (index.go; its lexical
// half reads postings kept per index, lexical.go).
//
// Contracts: Chunk and ExtractPDF take untrusted input and never panic
// (both are fuzzed); every chunk is at most the requested size in bytes
// and valid UTF-8 when its input is; Search ranks by reciprocal rank
// fusion of BM25 over the chunks' texts and cosine similarity of their
// embeddings, and by BM25 alone without an embedder; an update of a
// chunk's text alone goes through Update, so the postings see it.
package docs
