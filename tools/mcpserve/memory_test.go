package mcpserve

import (
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/memory"
)

// TestMemoryTools: read-only, recall_memories alone is served; with
// MemoryWrites, remember and forget_memory too. The server holds its
// stores for its whole life, and another process's store on the same
// directory (here: a second Open) writes and reads alongside it.
func TestMemoryTools(t *testing.T) {
	dir := t.TempDir()
	st, err := memory.Open(dir, memory.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	set := &memory.Set{Workspace: st}
	t.Cleanup(func() { set.Close() })
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	opts.Memory = set

	ro := mustNew(t, opts)
	names := toolNames(t, connect(t, ro))
	if !slices.Contains(names, "recall_memories") || slices.Contains(names, "remember") || slices.Contains(names, "forget_memory") {
		t.Errorf("read-only tools: %v", names)
	}

	opts.MemoryWrites = true
	s := mustNew(t, opts)
	cs := connect(t, s)
	if got, isErr := call(t, cs, "remember", map[string]any{"content": "Prices are in cents, never floats.", "type": "decision"}); isErr || !strings.Contains(got, "Remembered as 1") {
		t.Fatalf("remember: %v %s", isErr, got)
	}
	chat, err := memory.Open(dir, memory.Workspace)
	if err != nil {
		t.Fatalf("a second store on the directory: %v", err)
	}
	defer chat.Close()
	if _, err := chat.Add(memory.Memory{Content: "Totals round half to even.", Type: "decision"}); err != nil {
		t.Fatalf("the other store's write: %v", err)
	}
	if got, isErr := call(t, cs, "recall_memories", map[string]any{"query": "totals round"}); isErr || !strings.Contains(got, "half to even") {
		t.Errorf("recall of the other store's memory: %v %s", isErr, got)
	}
	if got, isErr := call(t, cs, "forget_memory", map[string]any{"id": "1"}); isErr || !strings.Contains(got, "Forgot 1") {
		t.Errorf("forget: %v %s", isErr, got)
	}
	if got, _ := call(t, cs, "recall_memories", map[string]any{"query": "prices cents"}); !strings.Contains(got, "No memory matches") {
		t.Errorf("recall after forget: %s", got)
	}

	opts.Memory = nil
	if _, err := New(opts); err == nil {
		t.Error("MemoryWrites without Memory accepted")
	}
}
