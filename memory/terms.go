package memory

// Terms is the lexical index's view of text: its indexable terms in
// order (lower-cased words and numbers, stop words dropped), for other
// BM25 rankings that should match memory's (memory/docs).
func Terms(text string) []string { return tokenize(text) }
