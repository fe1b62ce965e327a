//go:build linux

package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/internal/fixture"
)

// In the REPL, /help lists the prompt commands with their argument hints
// and descriptions, a file named like a built-in is reported once and
// never shadows it, and /NAME args sends the expanded prompt.
func TestREPLPromptCommands(t *testing.T) {
	url, llm := fakellm.Start(t, "text Reviewed.\n")
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, map[string]string{
		".parley/commands/review.md":        "---\ndescription: Review a change\nargument-hint: [focus]\n---\nReview for $ARGUMENTS.\n",
		".parley/commands/frontend/lint.md": "Lint the frontend\n",
		".parley/commands/undo.md":          "not the real undo\n",
		".parley/commands/branch.md":        "On !`git branch --show-current`\n",
	})
	r := startREPL(t, dir, ws, url+"/v1", "--no-watch")
	r.play(t, []replStep{
		{"", []string{"parley> "}},
		{"/help\r", []string{"/delete ID", "undo.md skipped: /undo is a built-in command", "Prompt commands", "/branch", "runs 1 shell line(s); not approved: parley commands approve", "/frontend:lint", "Lint the frontend (workspace)", "/review [focus]", "Review a change (workspace)", "parley> "}},
		{"/undo\r", []string{"undo:", "parley> "}},
		{"/rev\terror handling\r", []string{"▸ /review", "Reviewed.", "parley> "}},
		{"\x04", nil},
	})
	reqs := llm.Requests()
	if len(reqs) != 1 || !bytes.Contains(reqs[0], []byte("Review for error handling.")) {
		t.Errorf("requests %q, want one with the expanded prompt", reqs)
	}
	r.scr.mu.Lock()
	defer r.scr.mu.Unlock()
	if n := bytes.Count(r.scr.buf, []byte("undo.md skipped")); n != 1 {
		t.Errorf("the shadowing file was reported %d times, want once", n)
	}
}

func TestCompleteName(t *testing.T) {
	names := []string{"help", "review", "resume", "frontend:lint"}
	for _, tt := range []struct {
		line, want string
		ok         bool
	}{
		{"/rev", "/review ", true},
		{"/re", "/re", false}, // review and resume: nothing more in common
		{"/fr", "/frontend:lint ", true},
		{"/x", "", false},
	} {
		got, pos, ok := completeName(tt.line, names)
		if got != tt.want || ok != tt.ok || (ok && pos != len(got)) {
			t.Errorf("completeName(%q) = %q, %d, %v; want %q, %v", tt.line, got, pos, ok, tt.want, tt.ok)
		}
	}
}
