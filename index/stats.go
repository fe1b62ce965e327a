package index

import (
	"cmp"
	"slices"
)

// LangStats are the totals of one language.
type LangStats struct {
	Lang    string `json:"lang"`
	Files   int    `json:"files"`
	Bytes   int64  `json:"bytes"`
	Symbols int64  `json:"symbols"`
	Refs    int64  `json:"refs"`
}

// Stats are whole-store totals, computed from the resident headers.
type Stats struct {
	Files     int         `json:"files"`
	Bytes     int64       `json:"bytes"`
	Symbols   int64       `json:"symbols"`
	Refs      int64       `json:"refs"`
	Partial   int         `json:"partial"`
	Skipped   int         `json:"skipped"`
	Languages []LangStats `json:"languages"`
}

// Stats sums the headers by language, largest languages first.
func (s *Store) Stats() Stats {
	var st Stats
	by := map[string]*LangStats{}
	s.mu.RLock()
	for _, h := range s.files {
		l := by[h.Lang]
		if l == nil {
			l = &LangStats{Lang: h.Lang}
			by[h.Lang] = l
		}
		l.Files++
		if h.Status != StatusSkipped {
			l.Bytes += h.Size // bytes read, as in Summary
		}
		l.Symbols += int64(h.Symbols)
		l.Refs += int64(h.Refs)
		switch h.Status {
		case StatusPartial:
			st.Partial++
		case StatusSkipped:
			st.Skipped++
		}
	}
	s.mu.RUnlock()
	for _, l := range by {
		st.Files += l.Files
		st.Bytes += l.Bytes
		st.Symbols += l.Symbols
		st.Refs += l.Refs
		st.Languages = append(st.Languages, *l)
	}
	slices.SortFunc(st.Languages, func(a, b LangStats) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Lang, b.Lang))
	})
	return st
}

// symbolCount is the number of symbols the headers record.
func (s *Store) symbolCount() int {
	n := 0
	s.mu.RLock()
	for _, h := range s.files {
		n += int(h.Symbols)
	}
	s.mu.RUnlock()
	return n
}
