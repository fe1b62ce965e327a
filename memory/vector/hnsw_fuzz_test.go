package vector

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"testing"
)

// FuzzDecodeGraph feeds damaged snapshots to the decoder: it must return
// an error or a graph that searches without panicking.
func FuzzDecodeGraph(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	g := newGraph(4, 4, 8)
	for i := range 40 {
		v, _ := unit(randVec(r, 4), 4)
		g.add(uint64(i+1), v)
	}
	var buf bytes.Buffer
	g.encode(bufio.NewWriter(&buf))
	f.Add(buf.Bytes())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := decodeGraph(bufio.NewReader(bytes.NewReader(data)), 1000)
		if err != nil {
			return
		}
		q := make([]float32, h.dim)
		q[0] = 1
		h.search(q, 10)
		if h.Len() < 1000 {
			v := make([]float32, h.dim)
			v[len(v)-1] = 1
			h.add(1<<62, v)
		}
	})
}

// TestGraphRoundTrip checks that a decoded graph is the encoded one.
func TestGraphRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	g := newGraph(8, 6, 20)
	for i := range 300 {
		v, _ := unit(randVec(r, 8), 8)
		g.add(uint64(i*3+1), v)
	}
	var buf bytes.Buffer
	if err := g.encode(bufio.NewWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	h, err := decodeGraph(bufio.NewReader(bytes.NewReader(buf.Bytes())), 1000)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := unit(randVec(r, 8), 8)
	a, b := g.search(q, 10), h.search(q, 10)
	if len(a) != 10 || len(a) != len(b) {
		t.Fatalf("searches found %d and %d", len(a), len(b))
	}
	for i := range a {
		if g.keys[a[i].node] != h.keys[b[i].node] || a[i].d != b[i].d {
			t.Fatalf("result %d differs: %v vs %v", i, a[i], b[i])
		}
	}
	if _, err := decodeGraph(bufio.NewReader(bytes.NewReader(buf.Bytes()[:buf.Len()/2])), 1000); err == nil {
		t.Error("truncated snapshot decoded")
	}
}
