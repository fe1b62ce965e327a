package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/memory"
)

func TestMemoryREPL(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	app, _, out := openTestChat(t, dir, ws, "text ok\n", &chatFlags{noWatch: true})
	set := app.agent.Env.Memory
	for _, m := range []memory.Memory{
		{Content: "Release from the release branch", Type: memory.Decision, Tags: []string{"release"}},
		{Content: "Prefers short answers", Type: memory.Preference, Scope: memory.User},
	} {
		if _, err := set.Add(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"/memory", []string{"/memory search WORDS"}},
		{"/memory list", []string{"[1] decision (importance 5; tags: release): Release from the release branch", "[u1] preference (importance 5): Prefers short answers"}},
		{"/memory list preference", []string{"[u1] preference"}},
		{"/memory list gossip", []string{`memory: unknown memory type "gossip"`}},
		{"/memory search release", []string{"[1] decision"}},
		{"/memory search kubernetes", []string{"no memory matches"}},
		{"/memory show u1", []string{"[u1] preference", "written "}},
		{"/memory edit 1 Release from main", []string{"edited [1] decision (importance 5; tags: release): Release from main"}},
		{"/memory edit 1", []string{"usage: /memory edit ID TEXT"}},
		{"/memory stale", []string{"no stale memories"}},
		{"/memory stats", []string{"workspace memories: 1 (1 decision) in ", "user memories: 1 (1 preference) in "}},
		{"/memory forget u1", []string{"forgot [u1] preference"}},
		{"/memory show u1", []string{"memory: memory 1: memory not found"}},
		{"/memory show x", []string{`memory: "x" is not a memory id`}},
		{"/memory frobnicate", []string{`unknown subcommand "frobnicate"`}},
	} {
		start := len(out.String())
		app.command(tc.cmd)
		got := out.String()[start:]
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.cmd, w, got)
			}
		}
	}
	if m, _ := set.Get("1"); m.Content != "Release from main" {
		t.Errorf("after edit: %+v", m)
	}
}
