package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCloseWithDirectoryGone: a server whose data directory is deleted
// under it (a test's temporary directory, a user cleaning caches) could
// never close its store: Pebble retries the failing final flush without
// end and the flush waits for it, so `shutdown` never answered and the
// process spun a core until killed. Close now gives up after closeWait.
func TestCloseWithDirectoryGone(t *testing.T) {
	defer func(d time.Duration) { closeWait = d }(closeWait)
	closeWait = 500 * time.Millisecond
	dir := t.TempDir()
	st := openTestStore(t, dir)
	if err := st.PutContent(context.Background(), "a.go", []byte("package a\n\nfunc A() {}\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	err := st.Close()
	// Let the abandoned flush succeed, so its retries do not spin through
	// the rest of the package's tests.
	if err := os.MkdirAll(filepath.Join(dir, "pebble"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err == nil || !strings.Contains(err.Error(), "abandoned") {
		t.Fatalf("Close = %v, want it to give up on the flush", err)
	}
}
