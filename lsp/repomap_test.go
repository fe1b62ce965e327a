package lsp

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
)

// systemOf is a model step that records the request's system prompt.
func systemOf(got *string, next modelStep) modelStep {
	return func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		*got = req.System
		return next(ctx, req)
	}
}

// The agent's system prompt carries the repo map, personalised toward the
// documents open in the editor: a.go and b.go rank equal (one package, no
// imports between them) and a.go comes first by path, until b.go is open.
// repo_map_tokens 0 leaves the map out.
func TestChatRepoMap(t *testing.T) {
	tests := []struct {
		name, layer, open string
		want, absent      string
	}{
		{"by path", `{}`, "", "<repo_map>\nThe workspace", ""},
		{"open document first", `{}`, "b.go", "b.go:\n  func Farewell() string\na.go:\n", ""},
		{"disabled", `{"repo_map_tokens": 0}`, "b.go", "", "<repo_map>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newScriptModel()
			e := chatEditor(t, m, tt.layer, false)
			if tt.open != "" {
				e.open(tt.open)
			}
			var system string
			m.script("map please", systemOf(&system, reply("ok")))
			awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "map please"}))
			if tt.want != "" && !strings.Contains(system, tt.want) {
				t.Errorf("system prompt lacks %q:\n%s", tt.want, system)
			}
			if tt.absent != "" && strings.Contains(system, tt.absent) {
				t.Errorf("system prompt has %q:\n%s", tt.absent, system)
			}
			if tt.open == "" && strings.Index(system, "a.go:") > strings.Index(system, "b.go:") {
				t.Errorf("without an open document a.go should come first:\n%s", system)
			}
		})
	}
}

// The map follows the conversation: a file named in a later message of the
// session comes into the map (the budget holds one file, a.go by path at
// first).
func TestChatRepoMapFollowsMessages(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"repo_map_tokens": 12}`, false)
	var first, second string
	m.script("map please", systemOf(&first, reply("ok")), systemOf(&second, reply("ok")))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "map please"}))
	if !strings.Contains(first, "a.go:") || strings.Contains(first, "b.go:") {
		t.Fatalf("first turn's map should hold a.go alone:\n%s", first)
	}
	awaitChat(t, e.chatCall(context.Background(), ChatParams{Session: res.Session, Message: "what does b.go say?"}))
	if !strings.Contains(second, "b.go:\n  func Farewell() string") {
		t.Errorf("second turn's map lacks b.go, which the message names:\n%s", second)
	}
}
