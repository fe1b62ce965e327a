package docs

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/memory/embed"
	"github.com/parleyhq/parley/memory/vector"

	"github.com/parleyhq/parley/memory/docs/pdftest"
)

type quiet struct{}

func (quiet) Infof(string, ...any)         {}
func (quiet) Errorf(string, ...any)        {}
func (quiet) Fatalf(f string, args ...any) { panic(f) }

func openVectors(t testing.TB) *vector.DB {
	t.Helper()
	dir := t.TempDir()
	pdb, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	vdb, err := vector.Open(pdb, 'V', filepath.Join(dir, "hnsw"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { vdb.Close(); pdb.Close() })
	return vdb
}

func fakeEmbedder(t testing.TB, model string) embed.Embedder {
	t.Helper()
	url, _ := fakellm.Start(t, "")
	c, err := embed.New(embed.Config{URL: url + "/v1/embeddings", Model: model})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestIngestAndSearchPDF(t *testing.T) {
	vdb := openVectors(t)
	emb := fakeEmbedder(t, "fake-embed-128")
	pages, err := ExtractPDF(pdftest.Make([][]string{
		{"Database migrations run with make migrate.", "They must be reversible."},
		{"Release builds come from the release branch only."},
		{"Logging goes through log/slog with the JSON handler."},
	}))
	if err != nil {
		t.Fatal(err)
	}
	ids, err := Ingest(context.Background(), vdb, emb, "manual", PDFPieces(pages, "manual.pdf", 0, 0, map[string]any{"kind": "doc"}))
	if err != nil || len(ids) != 3 {
		t.Fatalf("Ingest = %v, %v", ids, err)
	}
	res, lexOnly, err := Search(context.Background(), vdb, emb, "manual", "migrating the schema", 2)
	if err != nil || lexOnly || len(res) == 0 {
		t.Fatalf("Search = %+v, %v, %v", res, lexOnly, err)
	}
	if !strings.Contains(res[0].Text, "migrations") || res[0].Metadata["page"] != float64(1) || res[0].Metadata["source"] != "manual.pdf" || res[0].Metadata["kind"] != "doc" {
		t.Errorf("best hit %+v", res[0])
	}
	// Lexically, the paraphrase finds nothing; a shared word does.
	if res, lexOnly, _ := Search(context.Background(), vdb, nil, "manual", "migrating the schema", 2); !lexOnly || len(res) != 0 {
		t.Errorf("lexical search of a paraphrase: %+v", res)
	}
	res, lexOnly, err = Search(context.Background(), vdb, nil, "manual", "release branch", 2)
	if err != nil || !lexOnly || len(res) != 1 || res[0].Metadata["page"] != float64(2) {
		t.Errorf("lexical search = %+v, %v, %v", res, lexOnly, err)
	}
	if _, err := Ingest(context.Background(), vdb, nil, "manual", nil); !errors.Is(err, ErrNoEmbedder) {
		t.Errorf("Ingest without an embedder: %v", err)
	}
	if _, err := Ingest(context.Background(), vdb, fakeEmbedder(t, "fake-embed-128b"), "manual", TextPieces("x y z", "", 0, 0, nil)); !errors.Is(err, vector.ErrInvalid) {
		t.Errorf("another model into the index: %v", err)
	}
}
