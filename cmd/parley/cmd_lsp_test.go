package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/lspclient"
)

// printLSPList shows a session's running servers beside the configured
// ones (parley chat's /lsp), in text and JSON.
func TestPrintLSPListRunning(t *testing.T) {
	user := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(user, []byte(`{"lsp": {"go": {"command": ["sh"]}, "python": {"disabled": true}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{UserFile: user, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	running := []lspclient.Status{{Name: "go", Root: "/w", PID: 42, Documents: 3}}
	var b bytes.Buffer
	if err := printLSPList(&b, cfg, false, running); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"go          running", "python      disabled", "go runs as pid 42 for /w with 3 file(s) open", "wait up to 2000 ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	b.Reset()
	if err := printLSPList(&b, cfg, true, running); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Servers []lspListEntry `json:"servers"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 3 || doc.Servers[0].Name != "go" || doc.Servers[0].Source != user || len(doc.Servers[0].Running) != 1 {
		t.Errorf("json %+v", doc.Servers)
	}
}
