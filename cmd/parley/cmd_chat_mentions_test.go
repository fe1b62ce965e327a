//go:build linux

package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/internal/fixture"
)

var mentionTree = map[string]string{
	"pkg/server.go": "package pkg\n\n// Serve serves.\nfunc Serve() string { return \"SERVED\" }\n",
	"pkg/client.go": "package pkg\n\nfunc Dial() {}\n",
	"notes.txt":     "NOTES-BODY\n",
}

// At the REPL's prompt Tab completes a path or a special mention after
// "@", and the message's mentions are read and shown with their tokens.
func TestREPLMentions(t *testing.T) {
	url, llm := fakellm.Start(t, "text Seen.\n")
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, mentionTree)
	r := startREPL(t, dir, ws, url+"/v1", "--no-watch")
	r.play(t, []replStep{
		{"", []string{"parley> "}},
		{"look at @pkg/s\t", []string{"@pkg/server.go "}},
		{"and @diag\t", []string{"@diagnostics "}},
		{"and @nts\t", []string{"@notes.txt "}},
		{"\r", []string{"@pkg/server.go · ", " tokens", "@diagnostics · ", "@notes.txt · ", "Seen.", "parley> "}},
		{"\x04", nil},
	})
	reqs := llm.Requests()
	if len(reqs) != 1 || !bytes.Contains(reqs[0], []byte("look at @pkg/server.go and @diagnostics and @notes.txt")) ||
		!bytes.Contains(reqs[0], []byte(`SERVED`)) || !bytes.Contains(reqs[0], []byte(`NOTES-BODY`)) {
		t.Errorf("requests %q, want one with the completed message and the files", reqs)
	}
}

// A one-shot message's mentions are expanded as the REPL's are: a symbol
// by its exact name brings its definition, a missing path is reported.
func TestChatOnceMentions(t *testing.T) {
	url, llm := fakellm.Start(t, "text Done.\n")
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, mentionTree)
	cmd := parleyCommand(t, "chat", "--root", ws, "--no-watch", "explain @Serve, not @pkg/gone.go or @team")
	cmd.Env = chatTestEnv(dir, url+"/v1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("parley chat: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"@Serve · ", "@pkg/gone.go: pkg/gone.go does not exist"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "@team") {
		t.Errorf("a plain word was reported:\n%s", stderr.String())
	}
	reqs := llm.Requests()
	if len(reqs) != 1 || !bytes.Contains(reqs[0], []byte("pkg/server.go:4: function Serve")) || !bytes.Contains(reqs[0], []byte("SERVED")) {
		t.Errorf("requests %q, want the symbol's definition", reqs)
	}
}
