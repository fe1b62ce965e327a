package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSystemPrompt(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("Run `make check` before finishing.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "PROMPT.md"), []byte("Answer in British English.\n"), 0o644)
	big := strings.Repeat("line of instructions\n", 100)
	os.WriteFile(filepath.Join(other, "AGENTS.md"), []byte(big), 0o644)
	os.Mkdir(filepath.Join(other, "PROMPT.md"), 0o755) // not a file: skipped

	got := SystemPrompt(PromptOptions{
		Roots: []string{root, other}, Tools: []string{"read_file", "get_symbol", "find_references"},
		Now: time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC), OS: "linux", MaxInstructionBytes: 300,
	})
	for _, want := range []string{
		"coding agent", "smallest change", "tests",
		"get_symbol", "find_references",
		"Run `make check` before finishing.", "Answer in British English.",
		filepath.Join(root, "AGENTS.md"),
		"[... AGENTS.md is longer than 300 bytes; the rest was left out]",
		"Workspace roots: " + root + ", " + other, "Operating system: linux", "Today's date: 2025-06-07",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	for _, absent := range []string{"todo_write", "outline to see", "task tool"} {
		if strings.Contains(got, absent) {
			t.Errorf("prompt mentions %q, which is not offered", absent)
		}
	}
	if strings.Index(got, "make check") > strings.Index(got, "British") {
		t.Error("AGENTS.md should come before PROMPT.md")
	}
	if n := strings.Count(got, "line of instructions"); n == 0 || n > 15 {
		t.Errorf("capped file contributed %d lines", n)
	}
}

func TestSystemPromptIsStable(t *testing.T) {
	o := PromptOptions{Roots: []string{t.TempDir()}, Now: time.Date(2025, 1, 1, 1, 0, 0, 0, time.UTC)}
	a := SystemPrompt(o)
	o.Now = o.Now.Add(20 * time.Hour)
	if b := SystemPrompt(o); a != b {
		t.Error("the prompt changed within a day, which defeats prompt caching")
	}
}

func TestSystemPromptRepoMap(t *testing.T) {
	o := PromptOptions{Roots: []string{t.TempDir()}, Now: time.Date(2025, 1, 1, 1, 0, 0, 0, time.UTC)}
	without := SystemPrompt(o)
	if strings.Contains(without, "<repo_map>") {
		t.Error("a prompt without a map has a repo_map section")
	}
	o.RepoMap = "model/model.go:\n  func Total(items []Item) int\n"
	got := SystemPrompt(o)
	want := "<repo_map>\n"
	i := strings.Index(got, want)
	if i < 0 || !strings.Contains(got[i:], "model/model.go:\n  func Total(items []Item) int\n</repo_map>") {
		t.Fatalf("prompt lacks the map:\n%s", got)
	}
	if !strings.HasPrefix(got, without) {
		t.Error("the map is not after the stable part of the prompt, which defeats prompt caching")
	}
}
