package tools

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/memory/embed"
)

// TestRecallSaysLexicalOnce: without an embedder the first recall's result
// says search is lexical only, later ones do not.
func TestRecallSaysLexicalOnce(t *testing.T) {
	w := memoryEnv(t)
	ftOK(t, rememberTool, w.env, map[string]any{"content": "Migrations run with make migrate"})
	first := ftOK(t, recallMemoriesTool, w.env, map[string]any{"query": "migrations"})
	ftContains(t, first, "lexical only", "Migrations run with make migrate")
	if again := ftOK(t, recallMemoriesTool, w.env, map[string]any{"query": "migrations"}); strings.Contains(again, "lexical") {
		t.Errorf("said twice: %s", again)
	}
}

// TestRecallHybridTool: with the fake embedder, recall_memories finds a
// memory by a query sharing only word stems with it.
func TestRecallHybridTool(t *testing.T) {
	w := memoryEnv(t)
	url, _ := fakellm.Start(t, "")
	if err := w.env.Memory.UseEmbeddings(embed.Config{URL: url + "/v1", Model: "fake-embed-64"}, 0); err != nil {
		t.Fatal(err)
	}
	ftOK(t, rememberTool, w.env, map[string]any{"content": "Database migrations run with make migrate"})
	out := ftOK(t, recallMemoriesTool, w.env, map[string]any{"query": "migrating schemas"})
	ftContains(t, out, "[1]", "Database migrations")
	if strings.Contains(out, "lexical") {
		t.Errorf("hybrid recall says lexical: %s", out)
	}
}
