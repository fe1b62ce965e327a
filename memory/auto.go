package memory

import "strings"

// Auto-recall bounds: at most AutoRecallMax memories, AutoRecallTokens
// tokens of prompt (estimated at four bytes a token, the same rough rate
// the agent uses before a real count), and only memories relevant enough.
//
// Relevance is not judged on the BM25 or fused score, whose scale depends
// on the corpus (in a store of one memory every idf is below 0.3). A
// memory qualifies when it shares at least AutoRecallMinTerms of the
// message's indexable terms (all of them if it has fewer), which means
// the same in any store (a single shared word between a long message and
// a memory is usually chance); or, when recall is hybrid, when its
// embedding is close to the message's: a cosine similarity of at least
// AutoRecallMinSimilarity, and at least AutoRecallNearBest times the best
// similarity of the recall (when one memory is clearly the match, its
// runners-up are not). That lets a paraphrase sharing no word recall its
// memory.
//
// Both were measured on the retrieval-quality set (TestAutoRecallQuality,
// internal/fakellm's embeddings, 384 dimensions): the right memory scores
// 0.40-0.70 for queries sharing words with it and 0.02-0.33 for
// paraphrases; wrong memories sharing fewer than two words with the query
// stay below 0.28 but two (0.30 and 0.37), which the ratio drops (their
// queries' right memories score 0.69 and 0.63), anywhere in 0.6-0.9. A
// real model has its own scale (OpenAI's text-embedding-3 puts unrelated
// English text near 0.1-0.2), so the threshold is a configuration key,
// memory_recall_similarity (Set.MinSimilarity).
const (
	AutoRecallMax           = 3
	AutoRecallTokens        = 400
	AutoRecallMinTerms      = 2
	AutoRecallMinSimilarity = 0.28
	AutoRecallNearBest      = 0.75
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
	minSim := AutoRecallMinSimilarity
	if s.MinSimilarity > 0 {
		minSim = s.MinSimilarity
	}
	for _, h := range hits {
		minSim = max(minSim, AutoRecallNearBest*h.Similarity)
	}
	var picked []Hit
	var b strings.Builder
	b.WriteString("<recalled_memories>\nLong-term memories that may be relevant to this message (ids for forget_memory; verify before relying on them):\n")
	budget := AutoRecallTokens * 4
	for _, h := range hits {
		if len(picked) == AutoRecallMax || h.Matched < need && h.Similarity < minSim {
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
