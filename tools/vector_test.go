package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/memory/docs/pdftest"
	"github.com/parleyhq/parley/memory/embed"
)

func TestVectorTools(t *testing.T) {
	w := memoryEnv(t)
	env := w.env
	ftContains(t, ftOK(t, vdbListTool, env, map[string]any{}), "No vector index.")
	ftContains(t, ftOK(t, vdbCreateTool, env, map[string]any{"index_name": "points", "dimension": 3}), "Created index points (3 dimensions")
	ftFail(t, vdbCreateTool, env, map[string]any{"index_name": "points", "dimension": 3}, "exists already")
	ftFail(t, vdbCreateTool, env, map[string]any{"index_name": "_memories", "dimension": 3}, "parley's own")
	ftFail(t, vdbCreateTool, env, map[string]any{"index_name": "Bad Name", "dimension": 3}, "index name")

	ftContains(t, ftOK(t, vdbAddVectorTool, env, map[string]any{"index_name": "points", "vector": []float64{1, 0, 0}, "text": "east",
		"metadata": []map[string]string{{"key": "axis", "value": "x"}}}), "Added vector 1 to points.")
	ftContains(t, ftOK(t, vdbAddVectorTool, env, map[string]any{"index_name": "points", "vector": []float64{0, 1, 0}, "id": 7}), "Added vector 7")
	ftFail(t, vdbAddVectorTool, env, map[string]any{"index_name": "points", "vector": []float64{0, 1}}, "2 dimensions")
	ftFail(t, vdbAddVectorTool, env, map[string]any{"index_name": "nope", "vector": []float64{0, 1, 0}}, "not found")

	ftContains(t, ftOK(t, vdbSearchTool, env, map[string]any{"index_name": "points", "query_vector": []float64{0.9, 0.1, 0}, "k": 1}),
		"[1] score 0.99", "(axis=x)", "east")
	ftContains(t, ftOK(t, vdbUpdateTool, env, map[string]any{"index_name": "points", "id": 7, "text": "north"}), "Updated vector 7")
	ftContains(t, ftOK(t, vdbGetTool, env, map[string]any{"index_name": "points", "id": 7, "include_vector": true}), "[7] 3 dimensions", "north", "vector: [0 1 0]")
	ftContains(t, ftOK(t, vdbDeleteVectorTool, env, map[string]any{"index_name": "points", "id": 7}), "Deleted vector 7")
	ftFail(t, vdbDeleteVectorTool, env, map[string]any{"index_name": "points", "id": 7}, "not in index")
	ftFail(t, vdbGetTool, env, map[string]any{"index_name": "points", "id": 7}, "not found")
	ftFail(t, vdbSearchTool, env, map[string]any{"index_name": "points"}, "either query or query_vector")
	ftContains(t, ftOK(t, vdbListTool, env, map[string]any{}), "points: 1 vectors of 3 dimensions")

	// Text needs an embedder; text search works lexically without one.
	ftFail(t, vdbAddTextTool, env, map[string]any{"index_name": "notes", "text": "hello"}, "adding text needs embeddings")
	ftContains(t, ftOK(t, vdbSearchTool, env, map[string]any{"index_name": "points", "query": "east"}), "Lexical search only", "[1]", "east")

	ftContains(t, ftOK(t, vdbDeleteIndexTool, env, map[string]any{"index_name": "points"}), "Deleted index points.")
	ftFail(t, vdbDeleteIndexTool, env, map[string]any{"index_name": "points"}, "not found")
}

func TestVectorTextTools(t *testing.T) {
	w := memoryEnv(t)
	env := w.env
	url, _ := fakellm.Start(t, "")
	if err := env.Memory.UseEmbeddings(embed.Config{URL: url + "/v1", Model: "fake-embed-96"}, 0); err != nil {
		t.Fatal(err)
	}
	ftContains(t, ftOK(t, vdbAddTextTool, env, map[string]any{"index_name": "notes", "text": "Database migrations run with make migrate"}),
		"Added the text to notes as 1 vector(s), ids 1-1.")
	long := strings.Repeat("Release builds come from the release branch only. ", 40)
	ftContains(t, ftOK(t, vdbAddChunkedTool, env, map[string]any{"index_name": "notes", "text": long, "source": "RELEASING.md", "chunk_size": 500, "overlap": 0}),
		"as 4 vector(s), ids 2-5.")
	pdf := pdftest.Make([][]string{{"Logging goes through log/slog with the JSON handler."}, {"Panics on user input are bugs."}})
	if err := os.WriteFile(filepath.Join(w.root, "manual.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	ftContains(t, ftOK(t, vdbAddPDFTool, env, map[string]any{"index_name": "notes", "path": "manual.pdf"}), "Added manual.pdf (2 pages with text) to notes as 2 vector(s), ids 6-7.")
	ftFail(t, vdbAddPDFTool, env, map[string]any{"index_name": "notes", "path": "../outside.pdf"}, "outside")
	ftFail(t, vdbAddPDFTool, env, map[string]any{"index_name": "notes", "path": "missing.pdf"}, "does not exist")
	if err := os.WriteFile(filepath.Join(w.root, "fake.pdf"), []byte("not a pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	ftFail(t, vdbAddPDFTool, env, map[string]any{"index_name": "notes", "path": "fake.pdf"}, "fake.pdf: pdf:")

	out := ftOK(t, vdbSearchTool, env, map[string]any{"index_name": "notes", "query": "migrating schemas", "k": 1})
	ftContains(t, out, "[1]", "Database migrations")
	if strings.Contains(out, "Lexical") {
		t.Errorf("hybrid search says lexical: %s", out)
	}
	ftContains(t, ftOK(t, vdbSearchTool, env, map[string]any{"index_name": "notes", "query": "user input panics", "k": 1}),
		"[7]", "page=2", "source=manual.pdf", "Panics on user input are bugs.")
	ftContains(t, ftOK(t, vdbListTool, env, map[string]any{}), "notes: 7 vectors of 96 dimensions, embedded by fake-embed-96")
}

// TestVectorToolsWhileAnotherProcessOwns: the indices belong to one
// process at a time (memory.Store.Vectors); another's calls get an error
// result saying so, not an internal failure.
func TestVectorToolsWhileAnotherProcessOwns(t *testing.T) {
	w := memoryEnv(t)
	owner, err := memory.Open(w.env.Memory.Workspace.Dir(), memory.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	if _, err := owner.Vectors(); err != nil {
		t.Fatal(err)
	}
	ftFail(t, vdbListTool, w.env, map[string]any{}, "in use by another parley process")
}
