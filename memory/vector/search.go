package vector

import (
	"cmp"
	"slices"
)

// Result is a search hit: the vector's ID, text and metadata, and its
// cosine similarity to the query.
type Result struct {
	ID       uint64         `json:"id"`
	Score    float32        `json:"score"`
	Text     string         `json:"text,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Search returns up to k vectors nearest the query by cosine similarity,
// best first.
func (d *DB) Search(name string, query []float32, k int) ([]Result, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	info, err := d.info(name)
	if err != nil {
		return nil, err
	}
	q, err := unit(query, info.Dim)
	if err != nil {
		return nil, invalidf("query vector %v", err)
	}
	gr, err := d.loadGraph(info)
	if err != nil {
		return nil, err
	}
	if len(gr.live) == 0 {
		return nil, nil
	}
	// Tombstones may take some of the ef places; a rebuild keeps them
	// under a quarter of the graph.
	ef := max(info.EfSearch, k+min(gr.tombstones(), 4*k))
	var out []Result
	for _, c := range gr.g.search(q, ef) {
		id, ok := gr.live[gr.g.keys[c.node]]
		if !ok {
			continue
		}
		out = append(out, Result{ID: id, Score: 1 - c.d})
	}
	slices.SortFunc(out, func(a, b Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out = out[:min(k, len(out))]
	for i := range out {
		_, _, p, err := d.record(name, out[i].ID, true)
		if err != nil {
			return nil, err
		}
		out[i].Text, out[i].Metadata = p.Text, p.Metadata
	}
	return out, nil
}
