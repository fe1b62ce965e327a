package mcpserve

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/memory"
)

// memoryOpener opens the workspace store in dir (user memories: none);
// opens counts the opens.
func memoryOpener(dir string, opens *atomic.Int32) MemoryOpener {
	return func() (*memory.Set, func(), error) {
		opens.Add(1)
		st, err := memory.Open(dir, memory.Workspace)
		if err != nil {
			return nil, nil, err
		}
		set := &memory.Set{Workspace: st}
		return set, func() { set.Close() }, nil
	}
}

// TestMemoryTools: read-only, recall_memories alone is served; with
// MemoryWrites, remember and forget_memory too. The store is open only
// during a call, so another process (here: a second Open) gets it
// between calls, and a call while another holds it is an error result.
func TestMemoryTools(t *testing.T) {
	dir := t.TempDir()
	var opens atomic.Int32
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	opts.OpenMemory = memoryOpener(dir, &opens)

	ro, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	names := toolNames(t, connect(t, ro))
	if !slices.Contains(names, "recall_memories") || slices.Contains(names, "remember") || slices.Contains(names, "forget_memory") {
		t.Errorf("read-only tools: %v", names)
	}

	opts.MemoryWrites = true
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	if got, isErr := call(t, cs, "remember", map[string]any{"content": "Prices are in cents, never floats.", "type": "decision"}); isErr || !strings.Contains(got, "Remembered as 1") {
		t.Fatalf("remember: %v %s", isErr, got)
	}
	// Between calls the store is free: a chat can open it.
	chat, err := memory.Open(dir, memory.Workspace)
	if err != nil {
		t.Fatalf("the store is held between calls: %v", err)
	}
	if got, isErr := call(t, cs, "recall_memories", map[string]any{"query": "prices cents"}); !isErr || !strings.Contains(got, "in use by another parley process") {
		t.Errorf("recall while a chat holds the store: %v %s", isErr, got)
	}
	chat.Close()
	if got, isErr := call(t, cs, "recall_memories", map[string]any{"query": "prices cents"}); isErr || !strings.Contains(got, "never floats") {
		t.Errorf("recall: %v %s", isErr, got)
	}
	if got, isErr := call(t, cs, "forget_memory", map[string]any{"id": "1"}); isErr || !strings.Contains(got, "Forgot 1") {
		t.Errorf("forget: %v %s", isErr, got)
	}
	if got, _ := call(t, cs, "recall_memories", map[string]any{"query": "prices cents"}); !strings.Contains(got, "No memory matches") {
		t.Errorf("recall after forget: %s", got)
	}
	if n := opens.Load(); n != 5 {
		t.Errorf("%d opens for 5 memory calls", n)
	}

	opts.OpenMemory = nil
	if _, err := New(opts); err == nil {
		t.Error("MemoryWrites without OpenMemory accepted")
	}
}
