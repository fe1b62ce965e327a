package prompts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
)

// ToolReader reads @references with a's read_file tool, as the model
// would: judged by its permission policy (a read rule that asks asks),
// through the turn's file view (open buffers in the editor, the
// client's files over ACP, read deny rules), within the roots, and
// recorded in the session's re-read ledger for the turn s is about to
// run, so a later read_file of an unchanged file answers with a stub.
// Without a read_file tool it falls back to DiskReader.
func ToolReader(a *agent.Agent, s *agent.Session) Reader {
	if a.Env == nil || a.Env.Roots == nil {
		return nil
	}
	var rf tools.Tool
	if a.Registry != nil {
		rf, _ = a.Registry.Get("read_file")
	}
	if rf == nil {
		return DiskReader(a.Env.Roots)
	}
	return func(ctx context.Context, p string) (string, string, error) {
		_, _, rel, err := a.Env.Roots.Resolve(p)
		if err != nil {
			return "", "", err
		}
		in, err := json.Marshal(map[string]any{"path": p, "full": true})
		if err != nil {
			return "", "", err
		}
		call, err := rf.Prepare(a.Env, in)
		if err != nil {
			return "", "", err
		}
		// A command file could name a file the rules keep from the model
		// or ask about: the policy judges it as the model's read.
		if a.Policy != nil {
			ok, why, err := a.Policy.Check(ctx, a.Approver, rf.Name(), true, call.Access())
			if err != nil {
				return "", "", err
			}
			if !ok {
				return "", "", fmt.Errorf("not read: %s", why)
			}
		}
		ctx = ledger.WithCounter(ledger.WithTurn(ctx, s.Turns+1), tokcount.For(a.Model))
		res, err := call.Run(ctx)
		if err != nil {
			return "", "", fmt.Errorf("read %s: %w", p, err)
		}
		if res.IsError {
			return "", "", errors.New(firstLine(res.Content))
		}
		return filepath.ToSlash(rel), res.Content, nil
	}
}

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
