//go:build acpe2e

// Package e2e drives `parley acp` with the official Agent Client Protocol
// TypeScript client (@agentclientprotocol/sdk, pinned in package.json):
// `make acp-e2e` after `npm ci` here.
package e2e

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
)

// script is the fake model's side of client.mjs, one block per request.
const script = `tool read_file {"path":"a.txt"}
---
tool edit_file {"path":"a.txt","old_string":"unsaved","new_string":"edited"}
---
text edited it
---
tool write_file {"path":"new.txt","content":"x\n"}
---
text the write was refused
---
text partial answer
wait
---
text resumed answer
`

// TestOfficialClient runs client.mjs against the parley binary built from
// this tree, with the fake model, in a fresh workspace and data directory,
// configured the way the README shows: the environment of the process the
// editor starts.
func TestOfficialClient(t *testing.T) {
	if _, err := os.Stat(filepath.Join("node_modules", "@agentclientprotocol", "sdk")); err != nil {
		t.Fatalf("run npm ci in agent/acp/e2e first (%v)", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "parley")
	build := exec.Command("go", "build", "-o", bin, "github.com/parleyhq/parley/cmd/parley")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := filepath.Join(tmp, "project")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	llm, err := fakellm.New([]byte(script), "")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(llm)
	t.Cleanup(func() { llm.Close(); srv.Close() })

	cmd := exec.Command(node, "client.mjs")
	cmd.Env = append(cleanEnv(),
		"PARLEY_BIN="+bin, "WORKSPACE="+root,
		"HOME="+tmp, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"PARLEY_DATA_DIR="+filepath.Join(tmp, "data"),
		"PARLEY_API_URL="+srv.URL+"/v1", "PARLEY_PROVIDER=openai-compatible", "PARLEY_MODEL=fake-model",
	)
	out, err := cmd.CombinedOutput()
	t.Logf("client.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("client.mjs: %v", err)
	}
	reqs := llm.Requests()
	if len(reqs) != 7 {
		t.Fatalf("the model got %d requests, want 7", len(reqs))
	}
	for i, want := range map[int]string{
		1: "unsaved buffer",  // the read went through the editor's buffer
		4: "the user denied", // the rejection reached the model
		6: "edited it",       // the resumed session kept its history
	} {
		if !strings.Contains(string(reqs[i]), want) {
			t.Errorf("request %d lacks %q: %s", i+1, want, reqs[i])
		}
	}
}

// cleanEnv is the test's environment without parley's and the providers'
// settings, so nothing of the machine's configuration leaks in.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "PARLEY_") || strings.HasSuffix(k, "_API_KEY") || strings.HasPrefix(k, "XDG_") || k == "HOME" {
			continue
		}
		out = append(out, kv)
	}
	return out
}
