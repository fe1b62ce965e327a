package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/syncbuf"
)

// openTestChat opens `parley chat` in-process on the workspace ws, talking
// to a fake model API serving script, with its data and configuration
// under dir.
func openTestChat(t *testing.T, dir, ws, script string, f *chatFlags) (*chatApp, *fakellm.Server, *syncbuf.Buffer) {
	t.Helper()
	url, llm := fakellm.Start(t, script)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); chatSetting(name) {
			t.Setenv(name, "")
		}
	}
	for _, kv := range chatTestSettings(dir, url+"/v1") {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
	var out syncbuf.Buffer
	g := &globals{root: ws, dataDir: filepath.Join(dir, "data"), stdout: &out, stderr: &out}
	app, err := openChat(g, f, newChatCmd(g).Flags(), false)
	if err != nil {
		t.Fatalf("open chat: %v\n%s", err, out.String())
	}
	t.Cleanup(app.close)
	return app, llm, &out
}

// chatTestEnv is the environment of a parley chat process under test: the
// test's own without parley's settings and keys, plus chatTestSettings.
func chatTestEnv(dir, apiURL string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !chatSetting(name) {
			out = append(out, kv)
		}
	}
	return append(out, chatTestSettings(dir, apiURL)...)
}

// chatTestSettings put a chat's data and configuration under dir and its
// model API at apiURL.
func chatTestSettings(dir, apiURL string) []string {
	return []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"PARLEY_DATA_DIR=" + filepath.Join(dir, "data"),
		"PARLEY_API_URL=" + apiURL, "PARLEY_MODEL=fake-model"}
}

// chatSetting says whether an environment variable configures parley chat
// (settings, keys, where configuration lives): tests set those themselves.
func chatSetting(name string) bool {
	return strings.HasPrefix(name, "PARLEY_") || strings.HasSuffix(name, "_API_KEY") || name == "HOME" || name == "XDG_CONFIG_HOME"
}

// A file another program writes while the chat runs reaches the index
// through the watcher, and the agent's next query finds it.
func TestChatIndexFollowsTheDisk(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, map[string]string{"a.go": "package a\n\nfunc Answer() int { return 42 }\n"})
	app, llm, out := openTestChat(t, dir, ws, `tool find_definition {"name":"Later"}
---
text Found it.
`, &chatFlags{})
	if app.live == nil {
		t.Fatalf("no live index:\n%s", out.String())
	}
	runs := make(chan error, 100)
	app.live.mu.Lock()
	app.live.afterRun = func(_ *index.Summary, err error) { runs <- err }
	app.live.mu.Unlock()

	// "Another window" writes a new file.
	fixture.WriteTree(t, ws, map[string]string{"b.go": "package a\n\nfunc Later() {}\n"})
	timeout := time.After(30 * time.Second)
	for {
		defs, err := app.index.Definitions("Later")
		if err != nil {
			t.Fatal(err)
		}
		if len(defs) > 0 {
			break
		}
		select {
		case err := <-runs:
			if err != nil {
				t.Fatalf("index run: %v", err)
			}
		case <-timeout:
			t.Fatalf("b.go was not indexed within 30s:\n%s", out.String())
		}
	}
	if err := app.once("where is Later?"); err != nil {
		t.Fatal(err)
	}
	reqs := llm.Requests()
	if len(reqs) != 2 || !bytes.Contains(reqs[1], []byte("b.go:3: function Later")) {
		t.Fatalf("the model did not get the definition:\n%s", reqs[len(reqs)-1])
	}
}
