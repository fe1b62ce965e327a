package memory

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/parleyhq/parley/memory/embed"
)

// cacheHas reports which of keys the cache holds, reading the database
// directly (a GetEmbedding would reorder the entries).
func cacheHas(t *testing.T, st *Store, keys ...string) string {
	t.Helper()
	st.vec.mu.Lock()
	defer st.vec.mu.Unlock()
	var out string
	for _, k := range keys {
		_, closer, err := st.vec.pdb.Get(cacheKey(embed.Key("m", k)))
		if err == nil {
			closer.Close()
			out += k
		}
	}
	return out
}

// TestEmbeddingCacheEvictsLeastRecentlyUsed: beyond its bound the cache
// drops the entries least recently put or hit, and counts its bytes
// again after a reopen.
func TestEmbeddingCacheEvictsLeastRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir)
	entry := int64(8 + 4*4) // sequence and four float32
	c, err := st.embeddingCache(3 * entry)
	if err != nil {
		t.Fatal(err)
	}
	put := func(c *embedCache, names ...string) {
		t.Helper()
		var keys [][32]byte
		var vecs [][]float32
		for _, n := range names {
			keys = append(keys, embed.Key("m", n))
			vecs = append(vecs, []float32{1, 0, 0, float32(len(n))})
		}
		if err := c.PutEmbeddings(keys, vecs); err != nil {
			t.Fatal(err)
		}
	}
	put(c, "a", "b", "c")
	if v, ok, err := c.GetEmbedding(embed.Key("m", "a")); !ok || err != nil || fmt.Sprint(v) != "[1 0 0 1]" {
		t.Fatalf("GetEmbedding(a) = %v %v %v", v, ok, err)
	}
	put(c, "d")
	if got := cacheHas(t, st, "a", "b", "c", "d"); got != "acd" {
		t.Errorf("after a hit on a and a put of d the cache holds %q, want acd (b least recently used)", got)
	}
	put(c, "c") // a put of a held key moves it, and counts it once
	put(c, "e")
	if got := cacheHas(t, st, "a", "c", "d", "e"); got != "cde" {
		t.Errorf("after puts of c and e the cache holds %q, want cde (a least recently used)", got)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = open(t, dir)
	if c, err = st.embeddingCache(3 * entry); err != nil {
		t.Fatal(err)
	}
	put(c, "f")
	if got := cacheHas(t, st, "c", "d", "e", "f"); got != "cef" {
		t.Errorf("after a reopen and a put of f the cache holds %q, want cef", got)
	}
}

// TestEmbeddingCacheBoundsClient: through the embeddings client a hit
// costs no request, and a text evicted by newer ones costs one again.
func TestEmbeddingCacheBoundsClient(t *testing.T) {
	s := openSet(t)
	cfg, srv := fakeEmbeddings(t, "fake-embed-16")
	if err := s.UseEmbeddings(cfg, 4*(8+4*16)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	embedOne := func(text string) int {
		t.Helper()
		before := srv.EmbeddingRequests()
		if _, err := s.Embedder.Embed(ctx, []string{text}); err != nil {
			t.Fatal(err)
		}
		return srv.EmbeddingRequests() - before
	}
	if n := embedOne("first text"); n != 1 {
		t.Fatalf("first embedding made %d requests, want 1", n)
	}
	if n := embedOne("first text"); n != 0 {
		t.Errorf("a cached text made %d requests, want 0", n)
	}
	for i := range 4 {
		embedOne(fmt.Sprintf("newer text %d", i))
	}
	if n := embedOne("first text"); n != 1 {
		t.Errorf("an evicted text made %d requests, want 1", n)
	}
}

// TestEmbeddingCacheDropsUnboundedEntries: entries of memory/vector's old
// cache, which nothing evicted, are dropped when the bounded cache loads.
func TestEmbeddingCacheDropsUnboundedEntries(t *testing.T) {
	st := open(t, t.TempDir())
	if _, err := st.Vectors(); err != nil {
		t.Fatal(err)
	}
	k := embed.Key("m", "old")
	legacy := append(append([]byte(nil), legacyCachePrefix...), k[:]...)
	if err := st.vec.pdb.Set(legacy, []byte{0, 0, 128, 63}, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	c, err := st.embeddingCache(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := c.GetEmbedding(embed.Key("m", "new")); ok || err != nil {
		t.Fatalf("GetEmbedding(new) = %v, %v", ok, err)
	}
	if _, closer, err := st.vec.pdb.Get(legacy); !errors.Is(err, pebble.ErrNotFound) {
		if err == nil {
			closer.Close()
		}
		t.Errorf("memory/vector's old cache entry still there (%v)", err)
	}
}
