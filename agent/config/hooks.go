package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Hook events, named as Claude Code names them so that existing hook
// configurations work unchanged.
const (
	HookSessionStart      = "SessionStart"
	HookUserPromptSubmit  = "UserPromptSubmit"
	HookPreToolUse        = "PreToolUse"
	HookPermissionRequest = "PermissionRequest"
	HookPostToolUse       = "PostToolUse"
	HookPreCompact        = "PreCompact"
	HookStop              = "Stop"
	HookSubagentStop      = "SubagentStop"
	HookSessionEnd        = "SessionEnd"
)

// HookEvents lists every event a hook may be configured for.
var HookEvents = []string{
	HookSessionStart, HookUserPromptSubmit, HookPreToolUse, HookPermissionRequest,
	HookPostToolUse, HookPreCompact, HookStop, HookSubagentStop, HookSessionEnd,
}

// DefaultHookTimeout is a hook command's timeout in seconds when its
// definition names none (Claude Code's default).
const DefaultHookTimeout = 60

// HookCommand is one hook of a matcher group, in Claude Code's format:
// {"type": "command", "command": "...", "timeout": 30}.
type HookCommand struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"` // seconds; 0: DefaultHookTimeout
}

// HookMatcher is one matcher group: the hooks to run for the event's
// calls whose tool name (or, for SessionStart and PreCompact, source or
// trigger) the matcher accepts.
type HookMatcher struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// HooksSection is the "hooks" object of a config file: event name to
// matcher groups.
type HooksSection map[string][]HookMatcher

// Hook is one configured hook command with where it came from. Config.Hooks
// lists them in the order of the layers, then of the file.
type Hook struct {
	Event   string  `json:"event"`
	Matcher string  `json:"matcher,omitempty"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"` // seconds, never 0
	Source  string  `json:"source"`  // the config file
	// Workspace is set for hooks of a workspace file: they came with the
	// repository and run only once the user approved them.
	Workspace bool `json:"workspace,omitempty"`
}

// flatten validates the section and lists its hooks in a stable order
// (events as in HookEvents, then as written). A hook parley cannot honour
// (an unknown event, a type other than "command", a matcher that is not a
// valid regular expression) is an error, never skipped.
func (hp *HooksSection) flatten(source string) ([]Hook, error) {
	h := *hp
	for ev := range h {
		if !slices.Contains(HookEvents, ev) {
			return nil, fmt.Errorf("hooks: unknown event %q; want one of %s", ev, strings.Join(HookEvents, ", "))
		}
	}
	var out []Hook
	for _, ev := range HookEvents {
		for i, m := range h[ev] {
			if _, err := CompileHookMatcher(m.Matcher); err != nil {
				return nil, fmt.Errorf("hooks.%s[%d]: %w", ev, i, err)
			}
			if len(m.Hooks) == 0 {
				return nil, fmt.Errorf("hooks.%s[%d]: no hooks", ev, i)
			}
			for j, c := range m.Hooks {
				where := fmt.Sprintf("hooks.%s[%d].hooks[%d]", ev, i, j)
				if c.Type != "command" {
					return nil, fmt.Errorf("%s: type %q is not supported; only \"command\" hooks run in parley", where, c.Type)
				}
				if strings.TrimSpace(c.Command) == "" {
					return nil, fmt.Errorf("%s: empty command", where)
				}
				if c.Timeout < 0 {
					return nil, fmt.Errorf("%s: timeout must not be negative (got %g)", where, c.Timeout)
				}
				t := c.Timeout
				if t == 0 {
					t = DefaultHookTimeout
				}
				out = append(out, Hook{Event: ev, Matcher: m.Matcher, Command: c.Command, Timeout: t, Source: source})
			}
		}
	}
	return out, nil
}

// simpleMatcher is a matcher Claude Code compares for equality (with "|"
// separating alternatives) instead of treating it as a regular expression.
var simpleMatcher = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)

// CompileHookMatcher turns a matcher into a predicate on the tool name as
// Claude Code does: empty or "*" matches everything; letters, digits, "_"
// and "|" are exact names ("Edit|Write"); anything else is a regular
// expression that matches anywhere in the name ("mcp__.*").
func CompileHookMatcher(m string) (func(string) bool, error) {
	switch {
	case m == "" || m == "*":
		return func(string) bool { return true }, nil
	case simpleMatcher.MatchString(m):
		names := strings.Split(m, "|")
		return func(s string) bool { return slices.Contains(names, s) }, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, fmt.Errorf("matcher %q: %w", m, err)
	}
	return re.MatchString, nil
}
