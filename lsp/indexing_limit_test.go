package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestIndexOverLimitWarnsOnce: a folder with more files than the index
// limit is indexed anyway (the editor named it) but never silently: one
// window/showMessage warning naming the folder and the limit, plus a log
// line, and no second warning when a later run crosses the limit again.
// initializationOptions index.maxFiles replaces the server's limit.
func TestIndexOverLimitWarnsOnce(t *testing.T) {
	tests := []struct {
		name     string
		limit    int
		initOpts string
		want     int // showMessage warnings after two runs
	}{
		{name: "over", limit: 5, want: 1},
		{name: "at", limit: 11, want: 0},
		{name: "none", limit: 0, want: 0},
		{name: "init-over", initOpts: `{"index": {"maxFiles": 5}}`, want: 1},
		{name: "init-none", limit: 5, initOpts: `{"index": {"maxFiles": -1}}`, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{}
			for i := range 10 {
				files[fmt.Sprintf("p%d/f%d.go", i%3, i)] = fmt.Sprintf("package p\n\nfunc F%d() {}\n", i)
			}
			fixture.WriteTree(t, root, files)
			e := startEditor(t, root, editorConfig{dynWatch: true, initOpts: tt.initOpts, serverOpts: func(o *Options) { o.Index.MaxFiles = tt.limit }})
			if st := e.waitIndexed(1); st.Files != 10 {
				t.Fatalf("first run indexed %d files, want all 10", st.Files)
			}
			if err := os.WriteFile(filepath.Join(root, "p0", "g.go"), []byte("package p\n\nfunc G() {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			e.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: e.uri("p0/g.go"), Type: protocol.FileChangeTypeCreated}}})
			if st := e.waitIndexed(2); st.Files != 11 {
				t.Fatalf("second run indexed %d files, want 11", st.Files)
			}
			shown, logged := limitWarnings(t, e, root)
			if shown != tt.want || logged != tt.want {
				t.Errorf("%d showMessage and %d logMessage warnings, want %d of each", shown, logged, tt.want)
			}
		})
	}
}

// limitWarnings counts the warnings about root's file limit among the
// notes received so far.
func limitWarnings(t *testing.T, e *fakeEditor, root string) (shown, logged int) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range e.notes {
		if n.method != protocol.MethodWindowShowMessage && n.method != protocol.MethodWindowLogMessage {
			continue
		}
		var p struct {
			Type    protocol.MessageType `json:"type"`
			Message string               `json:"message"`
		}
		if err := json.Unmarshal(n.params, &p); err != nil {
			t.Fatalf("%s: %v", n.method, err)
		}
		if p.Type != protocol.MessageTypeWarning || !strings.Contains(p.Message, root+" has more than") {
			continue
		}
		if n.method == protocol.MethodWindowShowMessage {
			shown++
		} else {
			logged++
		}
	}
	return shown, logged
}
