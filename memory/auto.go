package memory

import "strings"

// Auto-recall bounds: at most AutoRecallMax memories, AutoRecallTokens
// tokens of prompt (estimated at four bytes a token, the same rough rate
// the agent uses before a real count), and only memories relevant enough.
// The relevance threshold is on matched terms, not on the BM25 score: a
// score's scale depends on the corpus (in a store of one memory every idf
// is below 0.3), while "shares at least AutoRecallMinTerms of the
// message's indexable terms (all of them if it has fewer)" means the same
// in any store. A single shared word between a long message and a memory
// is usually chance.
const (
	AutoRecallMax      = 3
	AutoRecallTokens   = 400
	AutoRecallMinTerms = 2
)

// AutoRecall picks the memories worth putting in front of the model for
// message, and the prompt text that carries them ("" when none qualify).
// It marks them used.
func (s *Set) AutoRecall(message string) (string, []Hit, error) {
	need := min(AutoRecallMinTerms, len(uniqueTerms(message)))
	hits, err := s.Recall(message, AutoRecallMax*3)
	if err != nil {
		return "", nil, err
	}
	var picked []Hit
	var b strings.Builder
	b.WriteString("<recalled_memories>\nLong-term memories that may be relevant to this message (ids for forget_memory; verify before relying on them):\n")
	budget := AutoRecallTokens * 4
	for _, h := range hits {
		if len(picked) == AutoRecallMax || h.Matched < need {
			continue
		}
		line := FormatHit(h) + "\n"
		if len(line) > budget {
			break
		}
		budget -= len(line)
		b.WriteString(line)
		picked = append(picked, h)
	}
	if len(picked) == 0 {
		return "", nil, nil
	}
	b.WriteString("</recalled_memories>")
	if err := s.MarkUsed(picked); err != nil {
		return "", nil, err
	}
	return b.String(), picked, nil
}
