package mcpserve

import (
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/permission"
)

// TestIndexNotReady: the server answers while the first index run goes
// on; an index tool waits for it (IndexWait) and then says how far it
// got; read_file does not wait; once the run is done the tools answer.
func TestIndexNotReady(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	ready := NewReadiness()
	opts.Ready, opts.IndexWait = ready, 10*time.Millisecond
	s := mustNew(t, opts)
	cs := connect(t, s)
	if got, isErr := call(t, cs, "find_definition", map[string]any{"name": "Discount"}); !isErr || !strings.Contains(got, "indexing, listing the workspace's files") {
		t.Errorf("before any progress: %v %s", isErr, got)
	}
	ready.Progress(120, 4000)
	for _, tool := range []string{"get_symbol", "repo_map"} {
		if got, isErr := call(t, cs, tool, map[string]any{"name": "Discount"}); !isErr || !strings.Contains(got, "indexing, 120 of 4000 files so far") {
			t.Errorf("%s during the run: %v %s", tool, isErr, got)
		}
	}
	if got, isErr := call(t, cs, "read_file", map[string]any{"path": "cart/fee.go"}); isErr || !strings.Contains(got, "func Discount()") {
		t.Errorf("read_file during the run: %v %s", isErr, got)
	}
	// A call waiting when the run ends gets its answer.
	opts.IndexWait = time.Hour
	s2 := mustNew(t, opts)
	cs2 := connect(t, s2)
	done := make(chan string, 1)
	go func() {
		res, _ := call(t, cs2, "find_definition", map[string]any{"name": "Discount"})
		done <- res
	}()
	ready.Done()
	if got := <-done; !strings.Contains(got, "cart/fee.go:4") {
		t.Errorf("after the run: %s", got)
	}
	if got, isErr := call(t, cs, "find_definition", map[string]any{"name": "Discount"}); isErr || !strings.Contains(got, "cart/fee.go:4") {
		t.Errorf("after the run: %v %s", isErr, got)
	}
}
