package lsp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/memory"
)

// refs lists the references of a list result, in order.
func refs(r MemoryListResult) string {
	var s []string
	for _, h := range r.Memories {
		s = append(s, memory.Ref(h.Memory))
	}
	return strings.Join(s, " ")
}

// The parley/memory* methods do what `parley memory` and /memory do, on
// the store the editor's agent uses, without a model: add, list with
// filters, search, show, edit, forget, stats; an anchored memory goes
// stale when the editor's buffer changes the anchored file, and editing
// it reviews it.
func TestMemoryMethods(t *testing.T) {
	userDir := t.TempDir()
	root := loadTxtar(t, "testdata/chat.txtar")
	e := startEditor(t, root, editorConfig{progress: true, serverOpts: func(o *Options) {
		o.Agent.UserMemoryDir = userDir
	}})
	e.waitIndexed(1)

	var added MemoryResult
	e.mustCall(methodMemoryAdd, MemoryAddParams{Content: "Farewells live in b.go", Type: memory.CodePattern,
		Importance: 8, Tags: []string{"greetings"}, Anchors: []memory.Anchor{{Path: "b.go"}}}, &added)
	if added.Memory.ID != 1 || added.Memory.Anchors[0].Hash == "" {
		t.Fatalf("added %+v", added.Memory)
	}
	e.mustCall(methodMemoryAdd, MemoryAddParams{Content: "Prefers British spelling", Type: memory.Preference, Scope: memory.User}, nil)
	e.mustCall(methodMemoryAdd, MemoryAddParams{Content: "Releases are cut on Fridays", Tags: []string{"release"}}, nil)

	for _, tt := range []struct {
		params string
		want   string
	}{
		{`null`, "1 2 u1"},
		{`[]`, "1 2 u1"}, // a Lua client's empty table
		{`{"types": ["preference"]}`, "u1"},
		{`{"scope": "workspace"}`, "1 2"},
		{`{"tags": ["release"]}`, "2"},
		{`{"stale": true}`, ""},
	} {
		var list MemoryListResult
		e.mustCall(methodMemoryList, json.RawMessage(tt.params), &list)
		if got := refs(list); got != tt.want {
			t.Errorf("list %s: %q, want %q", tt.params, got, tt.want)
		}
	}

	var found MemoryListResult
	e.mustCall(methodMemorySearch, MemorySearchParams{Query: "when are releases cut"}, &found)
	if refs(found) != "2" || found.Memories[0].Score <= 0 {
		t.Errorf("search: %+v", found)
	}
	// The wire form names each memory by its reference.
	var wire struct {
		Memories []map[string]any `json:"memories"`
	}
	e.mustCall(methodMemorySearch, MemorySearchParams{Query: "British"}, &wire)
	if len(wire.Memories) != 1 || wire.Memories[0]["ref"] != "u1" {
		t.Errorf("search on the wire: %+v", wire)
	}

	// The editor's buffer is what the anchor is judged against.
	e.openText("b.go", "package chat\n\nfunc Farewell() string { return \"so long\" }\n")
	var stale MemoryListResult
	e.mustCall(methodMemoryList, memory.Filter{Stale: true}, &stale)
	if refs(stale) != "1" || len(stale.Memories[0].Stale) != 1 || stale.Memories[0].Stale[0] != "b.go changed" {
		t.Fatalf("stale: %+v", stale)
	}
	var shown MemoryResult
	e.mustCall(methodMemoryShow, MemoryRefParams{ID: "1"}, &shown)
	if shown.Memory.Content != "Farewells live in b.go" || len(shown.Memory.Stale) != 1 {
		t.Errorf("show: %+v", shown)
	}
	var stats MemoryStatsResult
	e.mustCall(methodMemoryStats, nil, &stats)
	if len(stats.Stores) != 2 || stats.Stores[0].Count != 2 || stats.Stores[0].Stale != 1 ||
		stats.Stores[0].Types[memory.CodePattern] != 1 || stats.Stores[1].Count != 1 || !stats.Stores[1].Available {
		t.Errorf("stats: %+v", stats)
	}

	content, imp := "Farewells are built in b.go", 9
	var edited MemoryResult
	e.mustCall(methodMemoryEdit, MemoryEditParams{ID: "1", Edit: memory.Edit{Content: &content, Importance: &imp}}, &edited)
	if m := edited.Memory; m.Content != content || m.Importance != 9 || m.Type != memory.CodePattern || len(m.Stale) != 0 {
		t.Errorf("edited: %+v", m)
	}
	e.mustCall(methodMemoryList, memory.Filter{Stale: true}, &stale)
	if len(stale.Memories) != 0 {
		t.Errorf("still stale after the edit: %+v", stale)
	}

	var forgot MemoryResult
	e.mustCall(methodMemoryForget, MemoryRefParams{ID: "u1"}, &forgot)
	if forgot.Memory.Content != "Prefers British spelling" {
		t.Errorf("forgot %+v", forgot)
	}
	var list MemoryListResult
	e.mustCall(methodMemoryList, nil, &list)
	if refs(list) != "1 2" {
		t.Errorf("after forget: %q", refs(list))
	}

	// Mistakes are InvalidParams with the memory's own words.
	for _, tt := range []struct {
		method string
		params any
		want   string
	}{
		{methodMemoryShow, MemoryRefParams{ID: "7"}, "memory 7: memory not found"},
		{methodMemoryForget, MemoryRefParams{ID: "seven"}, "not a memory id"},
		{methodMemoryAdd, MemoryAddParams{Content: "x", Type: "gossip"}, `unknown memory type "gossip"`},
		{methodMemoryAdd, MemoryAddParams{Content: " "}, "memory content is empty"},
		{methodMemoryAdd, MemoryAddParams{Content: "x", Anchors: []memory.Anchor{{Path: "nope.go"}}}, "no such file or symbol"},
		{methodMemoryList, json.RawMessage(`{"scope": "team"}`), `unknown scope "team"`},
		{methodMemoryList, json.RawMessage(`{"colour": "red"}`), `unknown field "colour"`},
		{methodMemorySearch, MemorySearchParams{}, "query is empty"},
		{methodMemorySearch, MemorySearchParams{Query: "x", Types: []memory.Type{"gossip"}}, `unknown memory type "gossip"`},
		{methodMemoryEdit, json.RawMessage(`{"id": "2", "importance": 11}`), "importance 11 is outside 1-10"},
	} {
		err := e.call(tt.method, tt.params, nil)
		var rpc *jsonrpc2.Error
		if !errors.As(err, &rpc) || rpc.Code != jsonrpc2.InvalidParams || !strings.Contains(rpc.Message, tt.want) {
			t.Errorf("%s %+v: %v, want InvalidParams %q", tt.method, tt.params, err, tt.want)
		}
	}
}

// Without a store (the workspace's cannot be opened, no user store) the
// methods say memory is unavailable instead of answering empty lists.
func TestMemoryMethodsUnavailable(t *testing.T) {
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "memory"), []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := startEditor(t, t.TempDir(), editorConfig{serverOpts: func(o *Options) {
		o.StoreDir = func(string) (string, error) { return filepath.Join(data, "index"), nil }
	}})
	err := e.call(methodMemoryList, nil, nil)
	var rpc *jsonrpc2.Error
	if !errors.As(err, &rpc) || rpc.Code != -32803 || !strings.Contains(rpc.Message, "unavailable") {
		t.Errorf("list without stores: %v", err)
	}
}
