//go:build acpe2e

// Package e2e drives `parley acp` with the official Agent Client Protocol
// TypeScript client (@agentclientprotocol/sdk, pinned in package.json):
// `make acp-e2e` after `npm ci` here.
package e2e

import (
	"errors"
	"io/fs"
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
---
text reviewed
`

// authKey is the key of client.mjs's sign-in steps; authScript's model
// refuses requests without it (fakellm's key line).
const (
	authKey    = "sk-e2e-auth-7c2d"
	authScript = `key ` + authKey + `
text signed in
---
text signed in again
`
)

// TestOfficialClient runs client.mjs against the parley binary built from
// this tree, with the fake model, in a fresh workspace and data directory,
// configured the way docs/mcp-acp.md shows: the environment of the process the
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
	review := filepath.Join(root, ".parley", "commands", "review.md")
	if err := os.MkdirAll(filepath.Dir(review), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(review, []byte("---\ndescription: Review a file\nargument-hint: FILE\n---\nReview @$1.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	llm, err := fakellm.New([]byte(script), "")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(llm)
	t.Cleanup(func() { llm.Close(); srv.Close() })
	authLLM, err := fakellm.New([]byte(authScript), "")
	if err != nil {
		t.Fatal(err)
	}
	authSrv := httptest.NewServer(authLLM)
	t.Cleanup(func() { authLLM.Close(); authSrv.Close() })

	cmd := exec.Command(node, "client.mjs")
	cmd.Env = append(cleanEnv(),
		"PARLEY_BIN="+bin, "WORKSPACE="+root,
		"HOME="+tmp, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"PARLEY_DATA_DIR="+filepath.Join(tmp, "data"),
		"PARLEY_API_URL="+srv.URL+"/v1", "PARLEY_PROVIDER=openai-compatible", "PARLEY_MODEL=fake-model",
		"AUTH_API_URL="+authSrv.URL+"/v1", "AUTH_KEY="+authKey,
	)
	out, err := cmd.CombinedOutput()
	t.Logf("client.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("client.mjs: %v", err)
	}
	reqs := llm.Requests()
	if len(reqs) != 8 {
		t.Fatalf("the model got %d requests, want 8", len(reqs))
	}
	for i, want := range map[int]string{
		1: "unsaved buffer",  // the read went through the editor's buffer
		4: "the user denied", // the rejection reached the model
		6: "edited it",       // the resumed session kept its history
		7: "Review @a.txt.",  // the prompt command, expanded
	} {
		if !strings.Contains(string(reqs[i]), want) {
			t.Errorf("request %d lacks %q: %s", i+1, want, reqs[i])
		}
	}
	// Both sign-in sessions reached the model with the key (the script
	// refuses others), and the key went nowhere else.
	if n := len(authLLM.Requests()); n != 2 {
		t.Errorf("the model that wants a key got %d requests, want 2", n)
	}
	if strings.Contains(string(out), authKey) {
		t.Error("parley's output shows the key")
	}
	noKeyIn(t, filepath.Join(tmp, "data"), filepath.Join(tmp, "cache"), root)
}

// noKeyIn fails the test if a file under dirs holds authKey: sessions,
// logs and indexes must not keep it.
func noKeyIn(t *testing.T, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.Contains(string(data), authKey) {
				t.Errorf("%s holds the key", p)
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("walk %s: %v", dir, err)
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
