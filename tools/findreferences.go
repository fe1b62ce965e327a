package tools

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

//go:embed desc/find_references.md
var findReferencesDesc string

const defaultReferences = 100

type findReferencesParams struct {
	Name       string `json:"name,omitempty" jsonschema:"description=Identifier to find (exact spelling). A qualified name such as Server.Serve or http.Get that names one declaration finds the references to that declaration only; otherwise its last part is searched. May be omitted with line and column."`
	Path       string `json:"path,omitempty" jsonschema:"description=File or directory to restrict the search to; with line and column, the file the identifier is in."`
	Line       int    `json:"line,omitempty" jsonschema:"minimum=1,description=With column and path: find the references to what the identifier at this 1-based line means, as the editor's find-references resolves it (the whole workspace is searched)."`
	Column     int    `json:"column,omitempty" jsonschema:"minimum=1,description=1-based byte column of the identifier on line."`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=1000,description=Maximum occurrences to show (default 100); the rest are counted."`
}

// findReferencesTool lists the occurrences of an identifier.
var findReferencesTool = New(
	Spec{Name: "find_references", Description: findReferencesDesc, ReadOnly: true},
	findReferencesAccess, findReferencesRun)

func findReferencesAccess(env *Env, p *findReferencesParams) (access.Access, error) {
	return optionalPathAccess(env, p.Path, "find references to "+p.Name)
}

func findReferencesRun(ctx context.Context, env *Env, p *findReferencesParams) (*Result, error) {
	qualified := strings.TrimSpace(p.Name)
	_, name := splitQualified(qualified)
	var at *spot
	if p.Line > 0 || p.Column > 0 {
		var res *Result
		if at, res = spotAt(env, p.Path, p.Line, p.Column, qualified); res != nil {
			return res, nil
		}
		name = at.name
	}
	if name == "" {
		return Errorf("name is empty"), nil
	}
	qualified = strings.ReplaceAll(qualified, "::", ".")
	scopes, res := indexScopes(env, p.Path)
	if res != nil {
		return res, nil
	}
	if at != nil {
		sc := at.sc
		sc.prefix, sc.file = "", false // the whole workspace
		scopes = []scope{sc}
	}
	limit := cmp.Or(p.MaxResults, defaultReferences)
	var b strings.Builder
	shown, total, files := 0, 0, map[string]bool{}
	src := lineSource{env: env}
	for _, sc := range scopes {
		var refs []index.RefHit
		var err error
		if at != nil {
			refs, _, err = nav.ReferencesAt(sc.store, at.sc.prefix, at.src, at.off, at.name, 0, at.read)
		} else {
			refs, _, err = nav.ReferencesTo(sc.store, qualified, 0)
		}
		if errors.Is(err, nav.ErrNoReferences) {
			return Errorf("find_references at %s:%d:%d: %v", p.Path, p.Line, p.Column, err), nil
		}
		if err != nil {
			return nil, fmt.Errorf("references to %s: %w", name, err)
		}
		for _, r := range refs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if !sc.contains(r.Path) {
				continue
			}
			total++
			files[sc.root+"\x00"+r.Path] = true
			if shown == limit {
				continue
			}
			shown++
			tag := ""
			if r.Decl {
				tag = " [definition]"
			}
			if r.Uncertain {
				tag += " [uncertain]"
			}
			text := src.line(sc.absIn(r.Path), int(r.Pos.Line))
			fmt.Fprintf(&b, "%s:%d:%d: %s%s\n", displayRel(env, sc.root, r.Path), r.Pos.Line+1, r.Pos.Col+1, clip(strings.TrimSpace(text)), tag)
		}
	}
	if total == 0 {
		return &Result{Content: fmt.Sprintf("No references to %s in the index.\n", name)}, nil
	}
	if total > shown {
		fmt.Fprintf(&b, "[%d more references not shown (%d in %d files in all); narrow with path or raise max_results]\n", total-shown, total, len(files))
	}
	return &Result{Content: b.String()}, nil
}

// lineSource reads lines of files through env.Files, one file at a time
// (references come sorted by path, so one cached file suffices).
type lineSource struct {
	env   *Env
	abs   string
	lines []string
}

func (s *lineSource) line(abs string, n int) string {
	if abs != s.abs {
		s.abs, s.lines = abs, nil
		if s.env.Files != nil {
			if content, _, err := s.env.Files.Read(abs); err == nil {
				s.lines = splitLines(string(content))
			}
		}
	}
	if n < len(s.lines) {
		return s.lines[n]
	}
	return ""
}
