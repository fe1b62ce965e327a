package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/memory"
)

func memoryEnv(t *testing.T) *ftWorkspace {
	t.Helper()
	w := ftNew(t, map[string]string{"db/migrate.go": "package db\n"})
	ws, err := memory.Open(t.TempDir(), memory.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	user, err := memory.Open(t.TempDir(), memory.User)
	if err != nil {
		t.Fatal(err)
	}
	w.env.Memory = &memory.Set{Workspace: ws, User: user}
	t.Cleanup(func() { ws.Close(); user.Close() })
	return w
}

func TestMemoryTools(t *testing.T) {
	w := memoryEnv(t)
	ftContains(t, ftOK(t, rememberTool, w.env, map[string]any{
		"content": "Migrations run with make migrate", "type": "project_context", "importance": 7,
		"tags": []string{"database"}, "anchors": []map[string]any{{"path": "db/migrate.go", "symbol": "Run"}},
	}), "Remembered as 1.")
	ftContains(t, ftOK(t, rememberTool, w.env, map[string]any{"content": "Prefers terse commit messages", "type": "preference", "scope": "user"}),
		"Remembered as u1.")

	m, err := w.env.Memory.Get("1")
	if err != nil {
		t.Fatal(err)
	}
	if m.Type != memory.ProjectContext || m.Importance != 7 || !slices.Equal(m.Tags, []string{"database"}) ||
		len(m.Anchors) != 1 || m.Anchors[0] != (memory.Anchor{Path: "db/migrate.go", Symbol: "Run"}) {
		t.Errorf("stored %+v", m)
	}

	out := ftOK(t, recallMemoriesTool, w.env, map[string]any{"query": "database migrations"})
	ftContains(t, out, "[1] project_context (importance 7; tags: database): Migrations run with make migrate", "anchor: db/migrate.go Run")
	ftContains(t, ftOK(t, recallMemoriesTool, w.env, map[string]any{"query": "commit", "types": []string{"preference"}}), "[u1] preference")
	ftContains(t, ftOK(t, recallMemoriesTool, w.env, map[string]any{"query": "commit", "types": []string{"fact"}}), "No memory matches.")
	if m, _ := w.env.Memory.Get("1"); m.Used.IsZero() {
		t.Error("recalled memory not marked used")
	}

	ftContains(t, ftOK(t, forgetMemoryTool, w.env, map[string]any{"id": "u1"}), "Forgot u1: Prefers terse commit messages")
	ftFail(t, forgetMemoryTool, w.env, map[string]any{"id": "u1"}, "memory not found")
	ftFail(t, forgetMemoryTool, w.env, map[string]any{"id": "abc"}, "not a memory id")
	ftFail(t, rememberTool, w.env, map[string]any{"content": " "}, "content is empty")
	ftFail(t, rememberTool, w.env, map[string]any{"content": "x", "type": "gossip"}, "must be one of")
	ftFail(t, rememberTool, w.env, map[string]any{"content": "x", "anchors": []map[string]any{{"path": "../outside"}}}, "anchor 1")
	ftFail(t, recallMemoriesTool, w.env, map[string]any{"query": "x", "types": []string{"gossip"}}, "unknown memory type")

	w.env.Memory.User = nil
	ftFail(t, rememberTool, w.env, map[string]any{"content": "x", "scope": "user"}, "user memories are unavailable")
	w.env.Memory = nil
	for _, tool := range MemoryTools() {
		in := map[string]any{"content": "x", "query": "x", "id": "1"}
		var keep map[string]any
		json.Unmarshal(tool.Schema(), &struct {
			P *map[string]any `json:"properties"`
		}{&keep})
		for k := range in {
			if _, ok := keep[k]; !ok {
				delete(in, k)
			}
		}
		if msg := ftFail(t, tool, w.env, in, "unavailable"); !strings.Contains(msg, "memory") {
			t.Errorf("%s: %q", tool.Name(), msg)
		}
	}
}

// The interactive agents (chat, server, loop) get the memory tools.
func TestMemoryToolsRegister(t *testing.T) {
	r, err := NewRegistry(AgentTools()...)
	if err != nil {
		t.Fatal(err)
	}
	for name, readOnly := range map[string]bool{"remember": false, "recall_memories": true, "forget_memory": false} {
		tool, ok := r.Get(name)
		if !ok || tool.ReadOnly() != readOnly {
			t.Errorf("%s: registered %v, ReadOnly %v", name, ok, ok && tool.ReadOnly())
		}
	}
}
