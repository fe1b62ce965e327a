package docs

// TextPieces chunks a text (see Chunk) into pieces whose metadata names
// the source (when not empty) and the chunk's number, from 1, beside the
// caller's metadata.
func TextPieces(text, source string, size, overlap int, meta map[string]any) []Piece {
	var out []Piece
	for i, c := range Chunk(text, size, overlap) {
		out = append(out, Piece{Text: c, Metadata: pieceMeta(meta, source, 0, i+1)})
	}
	return out
}

// PDFPieces chunks each page of a PDF separately, so every piece names
// its page.
func PDFPieces(pages []Page, source string, size, overlap int, meta map[string]any) []Piece {
	var out []Piece
	for _, p := range pages {
		for i, c := range Chunk(p.Text, size, overlap) {
			out = append(out, Piece{Text: c, Metadata: pieceMeta(meta, source, p.N, i+1)})
		}
	}
	return out
}

func pieceMeta(meta map[string]any, source string, page, chunk int) map[string]any {
	m := make(map[string]any, len(meta)+3)
	for k, v := range meta {
		m[k] = v
	}
	if source != "" {
		m["source"] = source
	}
	if page > 0 {
		m["page"] = page
	}
	m["chunk"] = chunk
	return m
}
