package memory

import "testing"

// hybridQualitySet is a hybrid set (internal/fakellm's 384-d embeddings)
// holding the retrieval-quality memories, and their IDs in
// qualityMemories' order.
func hybridQualitySet(t *testing.T) (*Set, []uint64) {
	t.Helper()
	s, _ := hybridSet(t, "fake-embed-384")
	var ids []uint64
	for _, c := range qualityMemories {
		m, err := s.Add(Memory{Content: c})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	return s, ids
}

// TestRetrievalQualityHybrid measures the retrieval-quality set of
// quality_test.go through hybrid recall, with internal/fakellm's
// embeddings (hashed word stems and character trigrams: they know no
// synonyms, so they help where a paraphrase shares stems, not where it
// shares only meaning). Run with -v for the figures beside the lexical
// ones; it fails if hybrid recall does worse than lexical on either set,
// or below what it measured when written.
func TestRetrievalQualityHybrid(t *testing.T) {
	s, ids := hybridQualitySet(t)
	recall := func(hybrid bool) func(q string) ([]uint64, error) {
		return func(q string) ([]uint64, error) {
			var hits []Hit
			var err error
			if hybrid {
				hits, err = s.Recall(q, 10)
			} else {
				hits, err = s.lexicalRecall(q, 10)
			}
			var out []uint64
			for _, h := range hits {
				out = append(out, h.ID)
			}
			return out, err
		}
	}
	lexDirect, lexPara := measure(t, recall(false), ids, false), measure(t, recall(false), ids, true)
	hyDirect, hyPara := measure(t, recall(true), ids, false), measure(t, recall(true), ids, true)
	for _, f := range []struct {
		name string
		q    qualityFigures
	}{
		{"lexical, shared words", lexDirect}, {"lexical, paraphrases ", lexPara},
		{"hybrid, shared words ", hyDirect}, {"hybrid, paraphrases  ", hyPara},
	} {
		t.Logf("%s: recall@1 %.2f recall@3 %.2f MRR %.2f", f.name, f.q.at1, f.q.at3, f.q.mrr)
	}
	if hyDirect.mrr < lexDirect.mrr || hyPara.mrr < lexPara.mrr {
		t.Errorf("hybrid MRR %.2f / %.2f below lexical %.2f / %.2f", hyDirect.mrr, hyPara.mrr, lexDirect.mrr, lexPara.mrr)
	}
}
