package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// The repo map in `parley chat`'s system prompt follows the conversation:
// the budget holds one file (a.go, first by path), and a later message
// naming b.go brings b.go into the map of that turn's requests.
func TestChatRepoMapFollowsMessages(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"a.go":                "package m\n\nfunc Greeting() string { return \"hello\" }\n",
		"b.go":                "package m\n\nfunc Farewell() string { return \"bye\" }\n",
		".parley/config.json": `{"repo_map_tokens": 12}`,
	})
	app, llm, out := openTestChat(t, dir, ws, "text hi\n---\ntext bye\n", &chatFlags{noWatch: true})
	for _, msg := range []string{"hello", "what does b.go say?"} {
		if _, err := app.turn(context.Background(), msg); err != nil {
			t.Fatalf("%s: %v\n%s", msg, err, out.String())
		}
	}
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if !bytes.Contains(reqs[0], []byte(`a.go:\n  func Greeting`)) || bytes.Contains(reqs[0], []byte("b.go:")) {
		t.Errorf("first request's map should hold a.go alone:\n%s", reqs[0])
	}
	if !bytes.Contains(reqs[1], []byte(`b.go:\n  func Farewell() string`)) {
		t.Errorf("second request's map lacks b.go, which the message names:\n%s", reqs[1])
	}
}
