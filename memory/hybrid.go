package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/parleyhq/parley/memory/embed"
	"github.com/parleyhq/parley/memory/vector"
)

// Hybrid recall. With an embedder, a recall ranks each store's memories
// twice, by BM25 and by the cosine similarity of their embeddings to the
// query's, and fuses the two rankings by reciprocal rank fusion (Cormack
// et al., 2009): score = Σ 1/(rrfK + rank), over the rankings a memory is
// in. RRF needs no calibration between BM25 scores and similarities,
// which have unrelated scales. Without an embedder, or when it fails, a
// recall is lexical only and the Set says so (Notice).
//
// Memories' embeddings live in each store's vector index memoryIndex,
// keyed by memory ID: written when a memory is added or edited through
// the Set, removed when it is forgotten, and backfilled before a recall
// when the index holds fewer vectors than the store memories (memories
// imported or written while the embedder was down), or when the model
// changed (the index is then rebuilt).
const (
	memoryIndex = "_memories"
	rrfK        = 60
	// embedTimeout bounds the embedding calls that Set methods without a
	// context make (writes, and Recall).
	embedTimeout = 30 * time.Second
	// backfillBatch is how many memories one backfill request embeds.
	backfillBatch = 256
)

// ReservedIndex reports whether an index name is parley's own (names
// starting with "_"), which the vector tools must not change.
func ReservedIndex(name string) bool { return len(name) > 0 && name[0] == '_' }

// hybrid is the Set's embedding state.
type hybrid struct {
	mu       sync.Mutex // serialises backfills and notices
	lexSaid  bool       // the "lexical only" notice was given
	notice   string     // pending notice
	lastFail string     // the last failure noticed, so a repeat is not
}

// UseEmbeddings makes the Set's recalls hybrid, embedding through cfg's
// endpoint. The vectors are cached (by content hash, at most cacheBytes,
// 0: DefaultEmbeddingCacheBytes; see embedcache.go) in the workspace
// store, else the user store. The cache takes the store's vector indices
// at its first use, not here, so a process that never embeds never keeps
// them from another.
func (s *Set) UseEmbeddings(cfg embed.Config, cacheBytes int64) error {
	if st := s.stores(); len(st) > 0 {
		cfg.Cache = &lazyCache{st: st[0], limit: cacheBytes}
	}
	c, err := embed.New(cfg)
	if err != nil {
		return err
	}
	s.Embedder = c
	return nil
}

// RecallOptions is how a Set recalls, as the user configured it
// (agent.ConfigureMemory builds them from the configuration).
type RecallOptions struct {
	// MinSimilarity is the least similarity of an auto-recalled memory
	// (memory_recall_similarity).
	MinSimilarity float64
	// Embedding is the embeddings endpoint; nil keeps recall lexical.
	Embedding *embed.Config
	// CacheBytes bounds the embeddings cache (0: the default).
	CacheBytes int64
}

// Configure sets how the Set recalls: hybrid when o names an embeddings
// endpoint, else lexical. Its error is a configuration the user must fix.
func (s *Set) Configure(o RecallOptions) error {
	s.MinSimilarity = o.MinSimilarity
	if o.Embedding == nil {
		return nil
	}
	return s.UseEmbeddings(*o.Embedding, o.CacheBytes)
}

// Notice returns, once, what recall could not do since the last call:
// that search is lexical only (no embedder configured: said once per
// Set), or that the embedder failed (said again when the failure
// changes). "" when there is nothing to say.
func (s *Set) Notice() string {
	s.hy.mu.Lock()
	defer s.hy.mu.Unlock()
	n := s.hy.notice
	s.hy.notice = ""
	return n
}

func (s *Set) noteLexicalOnly() {
	s.hy.mu.Lock()
	defer s.hy.mu.Unlock()
	if !s.hy.lexSaid {
		s.hy.lexSaid = true
		s.hy.notice = "Memory search is lexical only: no embedding_model is configured, so memories are found by the words they share with the query."
	}
}

func (s *Set) noteFailure(err error) {
	msg := fmt.Sprintf("Memory search fell back to lexical only: %v", err)
	s.hy.mu.Lock()
	defer s.hy.mu.Unlock()
	if msg != s.hy.lastFail {
		s.hy.lastFail, s.hy.notice = msg, msg
	}
}

// Recall recalls up to k memories of the given types (all when none) for
// query, best first: hybrid with an embedder, else lexical (see above).
// In hybrid mode a Hit's Score is its fused RRF score.
func (s *Set) Recall(query string, k int, types ...Type) ([]Hit, error) {
	ctx, cancel := context.WithTimeout(context.Background(), embedTimeout)
	defer cancel()
	return s.RecallContext(ctx, query, k, types...)
}

// RecallContext is Recall with a context for the embedding calls.
func (s *Set) RecallContext(ctx context.Context, query string, k int, types ...Type) ([]Hit, error) {
	if s.Embedder == nil {
		s.noteLexicalOnly()
		return s.lexicalRecall(query, k, types...)
	}
	if k <= 0 {
		return nil, nil
	}
	qv, err := s.Embedder.Embed(ctx, []string{query})
	if err != nil {
		s.noteFailure(err)
		return s.lexicalRecall(query, k, types...)
	}
	hits, err := s.hybridRecall(ctx, query, qv[0], k, types)
	if err != nil {
		return nil, err
	}
	s.markStale(hits)
	return hits, nil
}

func sortHits(hits []Hit) {
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if sameScore(a.Score, b.Score) {
			return tieBreak(a, b)
		}
		return cmp.Compare(b.Score, a.Score)
	})
}

// hybridRecall fuses two rankings of both stores' memories: by BM25 (the
// lexical recall, merged across stores as lexicalRecall does) and by the
// similarity of their embeddings to qv (comparable across stores: one
// model made them all).
func (s *Set) hybridRecall(ctx context.Context, query string, qv []float32, k int, types []Type) ([]Hit, error) {
	pool := max(4*k, 20)
	lex, err := s.lexicalRecall(query, pool, types...)
	if err != nil {
		return nil, err
	}
	type key struct {
		scope Scope
		id    uint64
	}
	fused := map[key]*Hit{}
	for r, h := range lex {
		h.Score = 1 / float64(rrfK+r+1)
		fused[key{h.Scope, h.ID}] = &h
	}
	type near struct {
		st    *Store
		id    uint64
		score float32
	}
	var nears []near
	for _, st := range s.stores() {
		res, err := s.vectorRanking(ctx, st, qv, pool)
		if err != nil {
			s.noteFailure(err)
			continue
		}
		for _, r := range res {
			nears = append(nears, near{st, r.ID, r.Score})
		}
	}
	slices.SortStableFunc(nears, func(a, b near) int { return cmp.Compare(b.score, a.score) })
	// The memories only the vectors found, read in one operation per
	// store: a Get each would open the store for each.
	missing := map[*Store][]uint64{}
	for _, n := range nears {
		if fused[key{n.st.scope, n.id}] == nil {
			missing[n.st] = append(missing[n.st], n.id)
		}
	}
	got := map[key]Memory{}
	for st, ids := range missing {
		ms, err := st.GetMany(ids)
		if err != nil {
			return nil, err
		}
		for id, m := range ms {
			got[key{st.scope, id}] = m
		}
	}
	rank := 0
	for _, n := range nears {
		kk := key{n.st.scope, n.id}
		h := fused[kk]
		if h == nil {
			m, ok := got[kk]
			if !ok {
				continue // forgotten while its vector was being removed
			}
			if !wantType(m.Type, types) {
				continue
			}
			h = &Hit{Memory: m}
			fused[kk] = h
		}
		rank++
		h.Score += 1 / float64(rrfK+rank)
		h.Similarity = float64(n.score)
	}
	out := make([]Hit, 0, len(fused))
	for _, h := range fused {
		out = append(out, *h)
	}
	sortHits(out)
	return out[:min(len(out), k)], nil
}

// vectorRanking brings the store's memory embeddings up to date and
// returns the n memories nearest qv.
func (s *Set) vectorRanking(ctx context.Context, st *Store, qv []float32, n int) ([]vector.Result, error) {
	vdb, err := st.Vectors()
	if err != nil {
		return nil, err
	}
	if err := s.backfill(ctx, st, vdb); err != nil {
		return nil, err
	}
	res, err := vdb.Search(memoryIndex, qv, n)
	if errors.Is(err, vector.ErrNotFound) {
		return nil, nil // no memory in this store yet
	}
	return res, err
}

// backfill embeds the store's memories that have no vector (all of them
// when the model changed) and drops vectors of forgotten memories.
func (s *Set) backfill(ctx context.Context, st *Store, vdb *vector.DB) error {
	s.hy.mu.Lock()
	defer s.hy.mu.Unlock()
	model := s.Embedder.Model()
	info, err := vdb.Info(memoryIndex)
	exists := err == nil
	if err != nil && !errors.Is(err, vector.ErrNotFound) {
		return err
	}
	if exists && info.Model != "" && info.Model != model {
		if err := vdb.Delete(memoryIndex); err != nil {
			return err
		}
		exists = false
	}
	count, err := st.Count()
	if err != nil {
		return err
	}
	if exists && info.Count == count || !exists && count == 0 {
		return nil
	}
	mems, err := st.List()
	if err != nil {
		return err
	}
	have := map[uint64]bool{}
	if exists {
		ids, err := vdb.IDs(memoryIndex)
		if err != nil {
			return err
		}
		for _, id := range ids {
			have[id] = true
		}
	}
	var todo []Memory
	for _, m := range mems {
		if !have[m.ID] {
			todo = append(todo, m)
		}
		delete(have, m.ID)
	}
	var gone []uint64
	for id := range have {
		gone = append(gone, id)
	}
	if len(gone) > 0 {
		if _, err := vdb.Remove(memoryIndex, gone); err != nil {
			return err
		}
	}
	for i := 0; i < len(todo); i += backfillBatch {
		if err := s.putEmbeddings(ctx, vdb, todo[i:min(len(todo), i+backfillBatch)]); err != nil {
			return err
		}
	}
	return nil
}

// putEmbeddings embeds memories and stores their vectors, creating the
// index (of the model's dimension) on first use.
func (s *Set) putEmbeddings(ctx context.Context, vdb *vector.DB, mems []Memory) error {
	texts := make([]string, len(mems))
	for i, m := range mems {
		texts[i] = indexText(m)
	}
	vecs, err := s.Embedder.Embed(ctx, texts)
	if err != nil {
		return err
	}
	info, err := vdb.Info(memoryIndex)
	if errors.Is(err, vector.ErrNotFound) {
		info, err = vdb.Create(memoryIndex, len(vecs[0]))
	}
	if err != nil {
		return err
	}
	if info.Dim != len(vecs[0]) {
		// Same model name, another dimension (a local server swapped the
		// model): start the index again; the next recall backfills it.
		return vdb.Delete(memoryIndex)
	}
	items := make([]vector.Item, len(mems))
	for i, m := range mems {
		items[i] = vector.Item{ID: m.ID, Vector: vecs[i]}
	}
	_, err = vdb.Put(memoryIndex, items, s.Embedder.Model())
	return err
}

// embedWritten embeds a memory just added or edited. A failure is only
// noticed: the memory is stored, and a later recall backfills it.
func (s *Set) embedWritten(st *Store, m Memory) {
	if s.Embedder == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), embedTimeout)
	defer cancel()
	vdb, err := st.Vectors()
	if err == nil {
		s.hy.mu.Lock()
		err = s.putEmbeddings(ctx, vdb, []Memory{m})
		s.hy.mu.Unlock()
	}
	if err != nil {
		s.noteFailure(err)
	}
}

// unembed drops a forgotten memory's vector; a failure is noticed and the
// next backfill drops it.
func (s *Set) unembed(st *Store, id uint64) {
	vdb, err := st.Vectors()
	if err == nil {
		_, err = vdb.Remove(memoryIndex, []uint64{id})
	}
	if err != nil && !errors.Is(err, vector.ErrNotFound) {
		s.noteFailure(err)
	}
}
