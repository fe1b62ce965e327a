package docs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/parleyhq/parley/memory/embed"
	"github.com/parleyhq/parley/memory/vector"
)

// ErrNoEmbedder is matched by the error of Ingest without an embedder.
var ErrNoEmbedder = errors.New("no embeddings endpoint is configured (set embedding_model, and embedding_api_url for a local server)")

// Piece is a text to index with its metadata (source, page, chunk...).
type Piece struct {
	Text     string
	Metadata map[string]any
}

// ingestBatch is how many pieces one embedding call and one store write
// take.
const ingestBatch = 256

// Ingest embeds pieces and adds them to the index, creating it with the
// embedder's dimension when it does not exist. It returns the new IDs. A
// failure leaves the batches before it stored; the error says how many.
func Ingest(ctx context.Context, vdb *vector.DB, emb embed.Embedder, index string, pieces []Piece) ([]uint64, error) {
	if emb == nil {
		return nil, ErrNoEmbedder
	}
	var ids []uint64
	for i := 0; i < len(pieces); i += ingestBatch {
		batch := pieces[i:min(len(pieces), i+ingestBatch)]
		texts := make([]string, len(batch))
		for j, p := range batch {
			texts[j] = p.Text
		}
		vecs, err := emb.Embed(ctx, texts)
		if err == nil {
			err = ensureIndex(vdb, index, len(vecs[0]))
		}
		var got []uint64
		if err == nil {
			items := make([]vector.Item, len(batch))
			for j, p := range batch {
				items[j] = vector.Item{Vector: vecs[j], Text: p.Text, Metadata: p.Metadata}
			}
			got, err = vdb.Add(index, items, emb.Model())
		}
		if err != nil {
			if len(ids) > 0 {
				return ids, fmt.Errorf("after %d of %d pieces: %w", len(ids), len(pieces), err)
			}
			return nil, err
		}
		ids = append(ids, got...)
	}
	return ids, nil
}

func ensureIndex(vdb *vector.DB, index string, dim int) error {
	_, err := vdb.Info(index)
	if errors.Is(err, vector.ErrNotFound) {
		_, err = vdb.Create(index, dim)
	}
	return err
}

// rrfK is reciprocal rank fusion's constant (memory's hybrid recall uses
// the same).
const rrfK = 60

// Search returns up to k chunks of the index for a text query, best
// first: BM25 over the chunks' texts fused by reciprocal rank fusion with
// the cosine similarity of their embeddings to the query's. Without an
// embedder (or with an index of another model's vectors) it is lexical
// only and says so (lexicalOnly). A Result's Score is the fused score.
func Search(ctx context.Context, vdb *vector.DB, emb embed.Embedder, index, query string, k int) (res []vector.Result, lexicalOnly bool, err error) {
	info, err := vdb.Info(index)
	if err != nil {
		return nil, false, err
	}
	pool := max(4*k, 20)
	lex, err := bm25(vdb, index, query, pool)
	if err != nil {
		return nil, false, err
	}
	var near []vector.Result
	lexicalOnly = emb == nil || info.Model != emb.Model()
	if !lexicalOnly {
		qv, err := emb.Embed(ctx, []string{query})
		if err != nil {
			return nil, false, err
		}
		if near, err = vdb.Search(index, qv[0], pool); err != nil {
			return nil, false, err
		}
	}
	fused := map[uint64]*vector.Result{}
	score := map[uint64]float64{}
	for _, ranking := range [][]vector.Result{lex, near} {
		for r, x := range ranking {
			if fused[x.ID] == nil {
				x := x
				fused[x.ID] = &x
			}
			score[x.ID] += 1 / float64(rrfK+r+1)
		}
	}
	for id, x := range fused {
		x.Score = float32(score[id])
		res = append(res, *x)
	}
	slices.SortFunc(res, func(a, b vector.Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return res[:min(k, len(res))], lexicalOnly, nil
}
