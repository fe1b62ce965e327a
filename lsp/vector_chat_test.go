package lsp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
)

// embeddingLayer configures internal/fakellm's embeddings endpoint, as a
// user's embedding_api_url and embedding_model would; 384 dimensions, on
// which memory's auto-recall threshold was measured (fewer make the fake
// embeddings' hash collisions blur them).
func embeddingLayer(t *testing.T) string {
	t.Helper()
	url, _ := fakellm.Start(t, "")
	return fmt.Sprintf(`{"embedding_api_url": %q, "embedding_model": "fake-embed-384"}`, url+"/v1")
}

// TestChatVectorTools: in the editor, the agent adds text to a vector
// index (embedded through the configured endpoint) and finds it again by
// a query sharing no word with it, through the vector half of the search.
func TestChatVectorTools(t *testing.T) {
	m := newScriptModel()
	root := loadTxtar(t, "testdata/chat.txtar")
	e := startEditor(t, root, editorConfig{progress: true, agent: true, serverOpts: agentOpts(m, embeddingLayer(t))})
	e.waitIndexed(1)

	m.script("keep this in the notes index",
		calls("vector_db_add_text", `{"index_name": "notes", "text": "Database migrations run with make migrate"}`),
		calls("vector_db_search", `{"index_name": "notes", "query": "migrating", "k": 1}`),
		reply("Stored and found."))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "keep this in the notes index"}))
	results := toolResults(e.events(res.Session))
	if r := results["vector_db_add_text"]; len(r) != 1 || !strings.Contains(r[0], "Added the text to notes as 1 vector(s)") {
		t.Errorf("vector_db_add_text results %q", r)
	}
	if r := results["vector_db_search"]; len(r) != 1 || !strings.Contains(r[0], "[1]") || !strings.Contains(r[0], "Database migrations") || strings.Contains(r[0], "Lexical") {
		t.Errorf("vector_db_search results %q", r)
	}
}

// TestChatHybridAutoRecall: with an embeddings endpoint, a message sharing
// no word with a memory recalls it when their embeddings are close, and
// the editor gets the memory event.
func TestChatHybridAutoRecall(t *testing.T) {
	m := newScriptModel()
	root := loadTxtar(t, "testdata/chat.txtar")
	e := startEditor(t, root, editorConfig{progress: true, agent: true, serverOpts: agentOpts(m, embeddingLayer(t))})
	e.waitIndexed(1)

	m.script("note it",
		calls("remember", `{"content": "Logging goes through log/slog with the JSON handler in production"}`),
		reply("Noted."))
	awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "note it"}))

	const msg = "where does output of the logger go"
	m.script(msg, reply("To slog."))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: msg}))
	var got []ChatEvent
	for _, ev := range e.events(res.Session) {
		if ev.Kind == "memory" {
			got = append(got, ev)
		}
	}
	if len(got) != 1 || len(got[0].Memories) != 1 || got[0].Memories[0].ID != "1" {
		t.Fatalf("memory events %+v", got)
	}
}
