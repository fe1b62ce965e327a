package memory

import (
	"fmt"
	"testing"
)

// autoFigures are auto-recall's precision (right memories among those
// put in the prompt) and recall (queries whose memory was put there).
type autoFigures struct{ right, picked, found, queries int }

func (f autoFigures) String() string {
	p := "n/a"
	if f.picked > 0 {
		p = fmt.Sprintf("%.2f", float64(f.right)/float64(f.picked))
	}
	return fmt.Sprintf("precision %s (%d/%d) recall %.2f (%d/%d)", p, f.right, f.picked, float64(f.found)/float64(f.queries), f.found, f.queries)
}

// TestAutoRecallQuality runs auto-recall on the retrieval-quality set of
// quality_test.go, lexical (no embedder) and hybrid (internal/fakellm's
// embeddings), and fails below what it measured when written: lexical
// shared-word precision/recall 0.93/0.93 and 0/0 on paraphrases (no
// paraphrase shares two words with its memory); hybrid 0.93/1.00 and
// 1.00/0.38. Run with -v for the figures.
func TestAutoRecallQuality(t *testing.T) {
	s, ids := hybridQualitySet(t)
	run := func() (direct, para autoFigures) {
		for _, q := range qualityQueries {
			f := &direct
			if q.paraphrase {
				f = &para
			}
			_, hits, err := s.AutoRecall(q.query)
			if err != nil {
				t.Fatal(err)
			}
			f.queries++
			f.picked += len(hits)
			for _, h := range hits {
				if h.ID == ids[q.want] {
					f.right++
					f.found++
				}
			}
		}
		return direct, para
	}
	hyDirect, hyPara := run()
	embedder := s.Embedder
	s.Embedder = nil
	lexDirect, lexPara := run()
	s.Embedder = embedder
	t.Logf("lexical, shared words: %v", lexDirect)
	t.Logf("lexical, paraphrases:  %v", lexPara)
	t.Logf("hybrid, shared words:  %v", hyDirect)
	t.Logf("hybrid, paraphrases:   %v", hyPara)
	for _, c := range []struct {
		name      string
		got, want autoFigures
	}{
		{"lexical, shared words", lexDirect, autoFigures{right: 13, picked: 14, found: 13}},
		{"hybrid, shared words", hyDirect, autoFigures{right: 14, picked: 15, found: 14}},
		{"hybrid, paraphrases", hyPara, autoFigures{right: 3, picked: 3, found: 3}},
	} {
		if c.got.found < c.want.found || c.got.picked-c.got.right > c.want.picked-c.want.right {
			t.Errorf("%s: %v, want at least %d found with at most %d wrong", c.name, c.got, c.want.found, c.want.picked-c.want.right)
		}
	}
}

// TestAutoRecallHybridParaphrase: a message sharing no indexable term
// with a memory recalls it when their embeddings are close, and only
// with an embedder; an unrelated message still recalls nothing.
func TestAutoRecallHybridParaphrase(t *testing.T) {
	s, _ := hybridSet(t, "fake-embed-384")
	for _, c := range []string{
		"Logging goes through log/slog with the JSON handler in production",
		"Release builds are made by goreleaser from the release branch only",
		"The user prefers table-driven tests over separate test functions",
	} {
		if _, err := s.Add(Memory{Content: c}); err != nil {
			t.Fatal(err)
		}
	}
	const msg = "where does output of the logger go"
	_, hits, err := s.AutoRecall(msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ID != 1 || hits[0].Matched != 0 || hits[0].Similarity < AutoRecallMinSimilarity {
		t.Errorf("hybrid AutoRecall(%q) = %+v, want memory 1 by similarity alone", msg, hits)
	}
	if _, hits, _ := s.AutoRecall("fix the typo in the README"); len(hits) != 0 {
		t.Errorf("unrelated message recalled %+v", hits)
	}
	// A model whose scale puts this paraphrase below the configured bar.
	s.MinSimilarity = hits[0].Similarity + 0.01
	if _, hits, _ := s.AutoRecall(msg); len(hits) != 0 {
		t.Errorf("MinSimilarity %.2f: AutoRecall(%q) = %+v, want none", s.MinSimilarity, msg, hits)
	}
	s.MinSimilarity = 0
	s.Embedder = nil
	if _, hits, _ := s.AutoRecall(msg); len(hits) != 0 {
		t.Errorf("lexical AutoRecall(%q) = %+v, want none (no shared term)", msg, hits)
	}
}
