package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
)

//go:embed desc/multi_edit.md
var multiEditDesc string

type multiEditParams struct {
	Path  string     `json:"path" jsonschema:"description=File to edit: relative to the workspace root, or absolute inside it."`
	Edits []editSpec `json:"edits" jsonschema:"description=Edits applied in order, each to the result of the previous ones. All succeed or none is applied."`
}

type editSpec struct {
	OldString  string `json:"old_string" jsonschema:"description=Exact text to replace; must occur exactly once (at that point in the sequence) unless replace_all is set."`
	NewString  string `json:"new_string" jsonschema:"description=Replacement text (may be empty)."`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"description=Replace every occurrence."`
}

// multiEditTool applies several exact-string edits to one file atomically.
var multiEditTool = New(
	Spec{Name: "multi_edit", Description: multiEditDesc},
	multiEditAccess, multiEditRun)

func multiEditAccess(env *Env, p *multiEditParams) (access.Access, error) {
	return pathAccess(env, access.Edit, p.Path, "edit")
}

func multiEditRun(ctx context.Context, env *Env, p *multiEditParams) (*Result, error) {
	if len(p.Edits) == 0 {
		return Errorf("edits is empty; nothing to do"), nil
	}
	abs, shown, content, version, res := readForEdit(env, p.Path)
	if res != nil {
		return res, nil
	}
	text := string(content)
	var lines []string
	for i, e := range p.Edits {
		out, n, line, msg := replaceText(text, e.OldString, e.NewString, e.ReplaceAll)
		if msg != "" {
			after := ""
			if i > 0 {
				after = fmt.Sprintf(" (after applying edits 1-%d)", i)
			}
			return Errorf("%s: edit %d of %d%s: %s. No edits were applied.", shown, i+1, len(p.Edits), after, msg), nil
		}
		if res := refuseElided(env, abs, shown, content, e.OldString); res != nil {
			res.Content = fmt.Sprintf("%s (edit %d of %d). No edits were applied.", res.Content, i+1, len(p.Edits))
			return res, nil
		}
		text = out
		lines = append(lines, fmt.Sprintf("  edit %d: %s at line %d", i+1, plural(n, "replacement"), line))
	}
	change := FileChange{Op: OpModify, Path: abs, Old: content, Version: version, New: []byte(text)}
	msg := fmt.Sprintf("Edited %s with %s:\n%s", shown, plural(len(p.Edits), "edit"), strings.Join(lines, "\n"))
	return applyChanges(ctx, env, "edit "+shown, []FileChange{change}, msg)
}
