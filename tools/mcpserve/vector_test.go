package mcpserve

import (
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/memory/embed"
	"github.com/parleyhq/parley/tools"
)

// TestVectorToolLists: every vector_db_* tool is in exactly one list, and
// the read list is the tools that change nothing.
func TestVectorToolLists(t *testing.T) {
	for _, tl := range tools.VectorTools() {
		read, write := slices.Contains(VectorReadTools, tl.Name()), slices.Contains(VectorWriteTools, tl.Name())
		if read == write || read != tl.ReadOnly() {
			t.Errorf("%s: read list %v, write list %v, ReadOnly %v", tl.Name(), read, write, tl.ReadOnly())
		}
	}
	if n := len(VectorReadTools) + len(VectorWriteTools); n != len(tools.VectorTools()) {
		t.Errorf("%d tools listed, %d vector tools", n, len(tools.VectorTools()))
	}
}

// TestVectorTools: without memory writes only the reading vector tools
// are served; with them a client adds text (embedded through the
// configured endpoint) and finds it by a paraphrase. While another
// process owns the indices, a vector call is an error result and the
// server goes on answering.
func TestVectorTools(t *testing.T) {
	dir := t.TempDir()
	st, err := memory.Open(dir, memory.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	set := &memory.Set{Workspace: st}
	t.Cleanup(func() { set.Close() })
	url, _ := fakellm.Start(t, "")
	if err := set.UseEmbeddings(embed.Config{URL: url + "/v1", Model: "fake-embed-64"}, 0); err != nil {
		t.Fatal(err)
	}
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	opts.Memory = set

	ro := mustNew(t, opts)
	names := toolNames(t, connect(t, ro))
	for _, n := range VectorReadTools {
		if !slices.Contains(names, n) {
			t.Errorf("read-only server lacks %s: %v", n, names)
		}
	}
	for _, n := range VectorWriteTools {
		if slices.Contains(names, n) {
			t.Errorf("read-only server serves %s", n)
		}
	}

	opts.MemoryWrites = true
	s := mustNew(t, opts)
	cs := connect(t, s)
	if got, isErr := call(t, cs, "vector_db_add_text", map[string]any{"index_name": "notes", "text": "Database migrations run with make migrate"}); isErr || !strings.Contains(got, "Added the text to notes") {
		t.Fatalf("vector_db_add_text: %v %s", isErr, got)
	}
	if got, isErr := call(t, cs, "vector_db_search", map[string]any{"index_name": "notes", "query": "migrating schemas", "k": 1}); isErr || !strings.Contains(got, "Database migrations") || strings.Contains(got, "Lexical") {
		t.Errorf("vector_db_search: %v %s", isErr, got)
	}

	// The set's store holds the indices now; a second process's server
	// (its own store on the directory) is told they are in use.
	other, err := memory.Open(dir, memory.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	otherSet := &memory.Set{Workspace: other}
	t.Cleanup(func() { otherSet.Close() })
	opts.Memory = otherSet
	s2 := mustNew(t, opts)
	cs2 := connect(t, s2)
	if got, isErr := call(t, cs2, "vector_db_list_indices", map[string]any{}); !isErr || !strings.Contains(got, "in use by another parley process") {
		t.Errorf("vector_db_list_indices while another owns them: %v %s", isErr, got)
	}
	if got, isErr := call(t, cs2, "recall_memories", map[string]any{"query": "anything"}); isErr {
		t.Errorf("recall_memories after the refused vector call: %s", got)
	}
}
