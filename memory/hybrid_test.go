package memory

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/memory/embed"
	"github.com/parleyhq/parley/memory/vector"
)

// fakeEmbeddings starts internal/fakellm and returns the embeddings
// configuration for it and the server.
func fakeEmbeddings(t *testing.T, model string) (embed.Config, *fakellm.Server) {
	t.Helper()
	url, srv := fakellm.Start(t, "")
	return embed.Config{URL: url + "/v1/embeddings", Model: model}, srv
}

func hybridSet(t *testing.T, model string) (*Set, *fakellm.Server) {
	t.Helper()
	s := openSet(t)
	cfg, srv := fakeEmbeddings(t, model)
	if err := s.UseEmbeddings(cfg, 0); err != nil {
		t.Fatal(err)
	}
	return s, srv
}

func refs(hits []Hit) string {
	var out []string
	for _, h := range hits {
		out = append(out, Ref(h.Memory))
	}
	return strings.Join(out, " ")
}

// TestHybridFindsParaphrase: a query sharing no word with its memory,
// only stems, is found by the vector half.
func TestHybridFindsParaphrase(t *testing.T) {
	s, _ := hybridSet(t, "fake-embed-128")
	m, err := s.Add(Memory{Content: "Database migrations run with make migrate"})
	if err != nil {
		t.Fatal(err)
	}
	s.Add(Memory{Content: "The user prefers tabs", Scope: User})
	hits, err := s.Recall("migrating the schema", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].ID != m.ID || hits[0].Scope != Workspace {
		t.Fatalf("hybrid recall = %s, want %s first", refs(hits), Ref(m))
	}
	lex, _ := s.lexicalRecall("migrating the schema", 3)
	if len(lex) != 0 {
		t.Errorf("lexical recall found %s: the test query should share no word", refs(lex))
	}
	if n := s.Notice(); n != "" {
		t.Errorf("notice with a working embedder: %q", n)
	}
}

func TestLexicalOnlyNoticeOnce(t *testing.T) {
	s := openSet(t)
	s.Add(Memory{Content: "builds use make"})
	for i := range 3 {
		hits, err := s.Recall("make", 3)
		if err != nil || len(hits) != 1 {
			t.Fatalf("recall %d: %v, %v", i, refs(hits), err)
		}
		n := s.Notice()
		if (i == 0) != strings.Contains(n, "lexical only") || i > 0 && n != "" {
			t.Errorf("recall %d notice %q", i+1, n)
		}
	}
}

// TestEmbedderDownFallsBack: a failing endpoint leaves memory working,
// lexically, says so, and the memories written meanwhile are embedded
// when it is back.
func TestEmbedderDownFallsBack(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	fake := fakellm.Embedding
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, `{"error":{"message":"model not loaded"}}`, 400)
			return
		}
		_, srv := fakellm.Start(t, "")
		srv.ServeHTTP(w, r)
	}))
	defer hs.Close()
	_ = fake
	s := openSet(t)
	if err := s.UseEmbeddings(embed.Config{URL: hs.URL + "/v1", Model: "fake-embed-64", MaxRetries: -1}, 0); err != nil {
		t.Fatal(err)
	}
	m, err := s.Add(Memory{Content: "Database migrations run with make migrate"})
	if err != nil {
		t.Fatalf("Add with the embedder down: %v", err)
	}
	if n := s.Notice(); !strings.Contains(n, "model not loaded") {
		t.Errorf("notice after a failed embedding: %q", n)
	}
	hits, err := s.Recall("make migrate", 3)
	if err != nil || len(hits) != 1 {
		t.Fatalf("lexical fallback: %s, %v", refs(hits), err)
	}
	if n := s.Notice(); n != "" {
		t.Errorf("the same failure noticed twice: %q", n)
	}
	down.Store(false)
	hits, err = s.Recall("migrating the schema", 3)
	if err != nil || len(hits) != 1 || hits[0].ID != m.ID {
		t.Fatalf("after recovery (backfilled): %s, %v", refs(hits), err)
	}
}

// TestBackfillAndForget: memories written around the Set (an import) are
// embedded on the next recall; a forgotten memory's vector goes; a new
// model rebuilds the index.
func TestBackfillAndForget(t *testing.T) {
	s, srv := hybridSet(t, "fake-embed-32")
	imported, err := s.Workspace.AddAll([]Memory{{Content: "alpha release notes"}, {Content: "beta testing plan"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Recall("release", 5); err != nil {
		t.Fatal(err)
	}
	vdb, _ := s.Workspace.Vectors()
	ids, _ := vdb.IDs(memoryIndex)
	if len(ids) != 2 {
		t.Fatalf("after backfill: vectors %v", ids)
	}
	before := srv.EmbeddingRequests()
	if _, err := s.Recall("release", 5); err != nil {
		t.Fatal(err)
	}
	if got := srv.EmbeddingRequests() - before; got != 0 {
		t.Errorf("a repeated recall made %d embedding requests (query and memories are cached)", got)
	}
	if _, err := s.Forget(Ref(imported[0])); err != nil {
		t.Fatal(err)
	}
	if ids, _ := vdb.IDs(memoryIndex); len(ids) != 1 || ids[0] != imported[1].ID {
		t.Errorf("after forget: vectors %v", ids)
	}
	cfg, _ := fakeEmbeddings(t, "fake-embed-48")
	if err := s.UseEmbeddings(cfg, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Recall("beta", 5); err != nil {
		t.Fatal(err)
	}
	info, err := vdb.Info(memoryIndex)
	if err != nil || info.Model != "fake-embed-48" || info.Dim != 48 || info.Count != 1 {
		t.Errorf("after a model change: %+v, %v", info, err)
	}
}

func TestReservedIndex(t *testing.T) {
	if !ReservedIndex(memoryIndex) || ReservedIndex("docs") {
		t.Error("ReservedIndex")
	}
	s, _ := hybridSet(t, "fake-embed-16")
	s.Add(Memory{Content: "x marks the spot"})
	vdb, _ := s.Workspace.Vectors()
	if _, err := vdb.Info(memoryIndex); err != nil {
		t.Errorf("memory index: %v", err)
	}
	if _, err := vdb.Info("nope"); !errors.Is(err, vector.ErrNotFound) {
		t.Error(err)
	}
	_ = context.Background
}

// TestHybridRecallOpensEachStoreFewTimes: a hybrid recall reads the
// memories only the vectors found in one operation per store, not one
// each (every operation opens the store: 0.5-1.2 ms, more under load).
func TestHybridRecallOpensEachStoreFewTimes(t *testing.T) {
	s, _ := hybridSet(t, "fake-embed-64")
	for i := range 30 {
		if _, err := s.Add(Memory{Content: fmt.Sprintf("note %d about topic%d", i, i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Recall("warm up the vectors", 5); err != nil { // backfills nothing, loads the graph
		t.Fatal(err)
	}
	before := s.Workspace.opens.Load()
	hits, err := s.Recall("noting topicality", 10) // no shared term: every hit is the vectors'
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) < 10 {
		t.Fatalf("%d hits, want 10", len(hits))
	}
	// The lexical recall, the backfill's count, one read of the rest.
	if n := s.Workspace.opens.Load() - before; n > 3 {
		t.Errorf("a hybrid recall ran %d operations on the workspace store, want at most 3", n)
	}
}
