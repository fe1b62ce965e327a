package prompts

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/hooks"
)

// Agent returns the agent for the expansion's turn: a copy of a with the
// command's model, and its tools narrowed to allowed-tools. a itself is
// not changed. Names that match no tool are reported in x.Notes.
func (x *Expansion) Agent(a *agent.Agent) *agent.Agent {
	t := *a
	if m := x.Command.Model; m != "" {
		t.Model = m
	}
	if len(x.Command.AllowedTools) == 0 || a.Registry == nil {
		return &t
	}
	names, unknown := ToolNames(x.Command.AllowedTools, a.Registry.Names())
	for _, u := range unknown {
		x.Notes = append(x.Notes, fmt.Sprintf("/%s: allowed-tools names %q, which is no tool here", x.Command.Name, u))
	}
	reg, err := a.Registry.Subset(names...)
	if err != nil {
		// Subset's names come from the registry itself.
		x.Notes = append(x.Notes, fmt.Sprintf("/%s: allowed-tools: %v", x.Command.Name, err))
		return &t
	}
	t.Registry = reg
	return &t
}

// ToolNames resolves allowed-tools entries against the tools available:
// a tool's own name, Claude Code's name for it ("Read", "Bash"), either
// with a pattern in parentheses (the pattern is not a grant: the
// permission policy still judges every call), or a prefix ending in "*"
// ("mcp_github_*"). It returns the tools matched, in available's order,
// and the entries that matched none.
func ToolNames(entries, available []string) (names, unknown []string) {
	want := map[string]bool{}
	for _, e := range entries {
		base, _, _ := strings.Cut(e, "(")
		base = strings.TrimSpace(base)
		if p, ok := hooks.ParleyName(base); ok {
			base = p
		}
		found := false
		for _, n := range available {
			if n == base || (strings.HasSuffix(base, "*") && strings.HasPrefix(n, strings.TrimSuffix(base, "*"))) {
				want[n], found = true, true
			}
		}
		if !found {
			unknown = append(unknown, e)
		}
	}
	for _, n := range available {
		if want[n] {
			names = append(names, n)
		}
	}
	return names, unknown
}
