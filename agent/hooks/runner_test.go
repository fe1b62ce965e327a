package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/config"
)

func TestAnswersCombine(t *testing.T) {
	const pre = config.HookPreToolUse
	tests := []struct {
		name     string
		event    string
		answers  []execResult
		decision string
		block    bool
		reason   string
		context  []string
		stop     bool
		outcomes []string
	}{
		{name: "exit 0 silent", event: pre, answers: []execResult{{exitCode: 0}}, outcomes: []string{OutcomeOK}},
		{name: "exit 2 denies with stderr", event: pre,
			answers:  []execResult{{exitCode: 2, stderr: []byte("no\n")}},
			decision: "deny", block: true, reason: "no", outcomes: []string{OutcomeBlocked}},
		{name: "deny beats ask beats allow", event: pre, answers: []execResult{
			{stdout: []byte(`{"hookSpecificOutput":{"permissionDecision":"allow"}}`)},
			{stdout: []byte(`{"hookSpecificOutput":{"permissionDecision":"ask"}}`)},
			{stdout: []byte(`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}`)},
			{stdout: []byte(`{"hookSpecificOutput":{"permissionDecision":"allow"}}`)},
		}, decision: "deny", block: true, reason: "r", outcomes: []string{OutcomeOK, OutcomeOK, OutcomeBlocked, OutcomeOK}},
		{name: "legacy approve", event: pre, answers: []execResult{{stdout: []byte(`{"decision":"approve"}`)}},
			decision: "allow", outcomes: []string{OutcomeOK}},
		{name: "plain stdout is context for prompts", event: config.HookUserPromptSubmit,
			answers: []execResult{{stdout: []byte("today is tuesday\n")}}, context: []string{"today is tuesday"}, outcomes: []string{OutcomeOK}},
		{name: "plain stdout is ignored for tools", event: pre,
			answers: []execResult{{stdout: []byte("chatter")}}, outcomes: []string{OutcomeOK}},
		{name: "continue false", event: config.HookStop,
			answers: []execResult{{stdout: []byte(`{"continue":false,"stopReason":"enough"}`)}}, stop: true, outcomes: []string{OutcomeBlocked}},
		{name: "failures are reported and change nothing", event: pre, answers: []execResult{
			{exitCode: 1, stderr: []byte("boom")},
			{stdout: []byte(`{"decision":`)},
			{stdout: []byte(`{"hookSpecificOutput":{"permissionDecision":"maybe"}}`)},
			{timedOut: true},
		}, outcomes: []string{OutcomeFailed, OutcomeFailed, OutcomeFailed, OutcomeTimeout}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var res Result
			var outcomes []string
			for _, a := range tc.answers {
				o, _ := res.absorb(tc.event, a, 1)
				outcomes = append(outcomes, o)
			}
			if res.Decision != tc.decision || res.Block != tc.block || res.Reason != tc.reason || res.Stop != tc.stop ||
				!slices.Equal(res.Context, tc.context) || !slices.Equal(outcomes, tc.outcomes) {
				t.Errorf("result %+v, outcomes %v", res, outcomes)
			}
		})
	}
}

func TestHookRunsInRootWithProjectDir(t *testing.T) {
	root := t.TempDir()
	r, err := New([]config.Hook{{Event: config.HookSessionStart, Matcher: "startup", Command: `pwd > where; echo "$CLAUDE_PROJECT_DIR" >> where`, Timeout: 10}}, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Run(context.Background(), Input{HookEventName: config.HookSessionStart, Source: "resume"}, nil)
	if _, err := os.Stat(filepath.Join(root, "where")); err == nil {
		t.Fatal("matcher startup ran for source resume")
	}
	var reps []Report
	r.Run(context.Background(), Input{HookEventName: config.HookSessionStart, Source: "startup"}, func(rep Report) { reps = append(reps, rep) })
	data, err := os.ReadFile(filepath.Join(root, "where"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(data)); len(got) != 2 || got[0] != root || got[1] != root || len(reps) != 1 || reps[0].ExitCode != 0 {
		t.Errorf("ran in %q, reports %+v", got, reps)
	}
}

func TestClaudeCodeMatchersSelectParleyTools(t *testing.T) {
	tests := []struct {
		matcher, tool string
		want          bool
	}{
		{"Bash", "shell", true},
		{"Edit|Write", "write_file", true},
		{"Edit|Write", "read_file", false},
		{"shell", "shell", true},
		{"Bash", "git_status", false},
		{"Web.*", "fetch_url", true},
	}
	for _, tc := range tests {
		root := t.TempDir()
		r, err := New([]config.Hook{{Event: config.HookPreToolUse, Matcher: tc.matcher, Command: "touch ran", Timeout: 10}}, root, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Run(context.Background(), Input{HookEventName: config.HookPreToolUse, ToolName: tc.tool}, nil)
		_, err = os.Stat(filepath.Join(root, "ran"))
		if got := err == nil; got != tc.want {
			t.Errorf("matcher %q on %s: ran %v, want %v", tc.matcher, tc.tool, got, tc.want)
		}
	}
}

func FuzzHookAnswer(f *testing.F) {
	f.Add(0, []byte(`{"continue":false,"hookSpecificOutput":{"permissionDecision":"deny","updatedInput":{"a":1}}}`), []byte(""))
	f.Add(2, []byte(""), []byte("reason"))
	f.Add(0, []byte(`{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":[]}}}`), []byte(""))
	f.Fuzz(func(t *testing.T, code int, stdout, stderr []byte) {
		for _, ev := range config.HookEvents {
			var res Result
			res.absorb(ev, execResult{exitCode: code, stdout: stdout, stderr: stderr}, 1)
			if res.Block && res.Reason == "" {
				t.Fatalf("%s: a block without a reason", ev)
			}
			if len(res.UpdatedInput) > 0 && !json.Valid(res.UpdatedInput) {
				t.Fatalf("%s: invalid updated input %q", ev, res.UpdatedInput)
			}
		}
	})
}
