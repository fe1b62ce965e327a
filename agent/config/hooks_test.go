package config

import (
	"strings"
	"testing"
)

func TestHookMatcher(t *testing.T) {
	tests := []struct {
		matcher string
		name    string
		want    bool
	}{
		{"", "shell", true},
		{"*", "anything", true},
		{"shell", "shell", true},
		{"shell", "shell_bg", false}, // simple names match exactly
		{"edit|write", "write", true},
		{"edit|write", "multi_edit", false},
		{"mcp__.*", "mcp__github__search", true},
		{"mcp__.*", "shell", false},
		{"^read", "read_file", true},
	}
	for _, tc := range tests {
		m, err := CompileHookMatcher(tc.matcher)
		if err != nil {
			t.Fatalf("%q: %v", tc.matcher, err)
		}
		if got := m(tc.name); got != tc.want {
			t.Errorf("matcher %q on %q = %v, want %v", tc.matcher, tc.name, got, tc.want)
		}
	}
}

func TestHooksConfig(t *testing.T) {
	const user = `{"hooks":{"PreToolUse":[{"matcher":"shell","hooks":[{"type":"command","command":"check.sh","timeout":5}]}]}}`
	const ws = `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"make test"}]}]}}`
	c, err := fixture{user: user, workspace: ws}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Hooks) != 2 {
		t.Fatalf("hooks %+v", c.Hooks)
	}
	u, w := c.Hooks[0], c.Hooks[1]
	if u.Event != HookPreToolUse || u.Matcher != "shell" || u.Command != "check.sh" || u.Timeout != 5 || u.Workspace || !strings.HasSuffix(u.Source, "user/config.json") {
		t.Errorf("user hook %+v", u)
	}
	if w.Event != HookStop || w.Timeout != DefaultHookTimeout || !w.Workspace || !strings.HasSuffix(w.Source, ".parley/config.json") {
		t.Errorf("workspace hook %+v", w)
	}

	for _, tc := range []struct{ name, file, want string }{
		{"unknown event", `{"hooks":{"PreToolCall":[{"hooks":[{"type":"command","command":"x"}]}]}}`, `unknown event "PreToolCall"`},
		{"prompt hooks are refused", `{"hooks":{"Stop":[{"hooks":[{"type":"prompt","command":"x"}]}]}}`, `type "prompt" is not supported`},
		{"bad regexp", `{"hooks":{"PreToolUse":[{"matcher":"(","hooks":[{"type":"command","command":"x"}]}]}}`, "matcher"},
		{"empty command", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":" "}]}]}}`, "empty command"},
		{"negative timeout", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":-1}]}]}}`, "timeout"},
	} {
		if _, err := (fixture{user: tc.file}).load(t); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}

	if err := c.Merge(Layer{Hooks: &HooksSection{HookStop: {{Hooks: []HookCommand{{Type: "command", Command: "x"}}}}}}, "initializationOptions"); err == nil {
		t.Error("hooks from initializationOptions were accepted")
	}
}
