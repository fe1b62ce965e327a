package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
)

//go:embed desc/get_diagnostics.md
var getDiagnosticsDesc string

// maxDiagnosticPaths bounds one call: each file may wait for a server.
const maxDiagnosticPaths = 50

type getDiagnosticsParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"description=Files to check. Default: every file changed in this turn."`
}

// getDiagnosticsTool reports the language servers' errors and warnings.
var getDiagnosticsTool = New(
	Spec{Name: "get_diagnostics", Description: getDiagnosticsDesc, ReadOnly: true},
	getDiagnosticsAccess, getDiagnosticsRun)

func getDiagnosticsAccess(env *Env, p *getDiagnosticsParams) (access.Access, error) {
	if len(p.Paths) > maxDiagnosticPaths {
		return access.Access{}, inputErrorf("at most %d paths at a time (got %d)", maxDiagnosticPaths, len(p.Paths))
	}
	a := access.Access{Kind: access.Read, Summary: "diagnostics"}
	for _, path := range p.Paths {
		pa, err := pathAccess(env, access.Read, path, "diagnostics")
		if err != nil {
			return access.Access{}, err
		}
		a.Paths = append(a.Paths, pa.Paths...)
	}
	if len(a.Paths) > 0 {
		a.Summary = "diagnostics of " + strings.Join(a.Paths, ", ")
	}
	return a, nil
}

func getDiagnosticsRun(ctx context.Context, env *Env, p *getDiagnosticsParams) (*Result, error) {
	d := env.Diagnostics
	if d == nil {
		return Errorf("diagnostics are unavailable in this session (no language server is configured or found)"), nil
	}
	paths := p.Paths
	if len(paths) == 0 {
		paths = d.Touched(ctx)
		if len(paths) == 0 {
			return &Result{Content: "No file was changed in this turn; name the files to check in paths."}, nil
		}
	}
	var files []DiagnosticFile
	var b strings.Builder
	for _, path := range paths {
		abs, _, content, _, res := readForEdit(env, path)
		if res != nil {
			fmt.Fprintf(&b, "%s\n", res.Content)
			continue
		}
		files = append(files, DiagnosticFile{Path: abs, Root: rootOf(env, abs), Content: content})
	}
	if len(files) > 0 {
		d.renderAll(&b, env, d.Source.Diagnose(ctx, files))
	}
	return &Result{Content: strings.TrimRight(b.String(), "\n")}, nil
}

// renderAll writes every error and warning of each file (and how many
// notes it has), within getDiagnosticsTokens.
func (d *Diagnostics) renderAll(b *strings.Builder, env *Env, all []FileDiagnostics) {
	used := 0
	for _, fd := range all {
		shown := displayPath(env, fd.Path)
		switch {
		case fd.Unsupported:
			fmt.Fprintf(b, "%s: no language server covers this file\n", shown)
			continue
		case fd.Problem != "":
			fmt.Fprintf(b, "%s: no diagnostics: %s\n", shown, fd.Problem)
			continue
		}
		var serious []Diagnostic
		notes := 0
		for _, g := range sortedDiags(fd.Diags) {
			if g.serious() {
				serious = append(serious, g)
			} else {
				notes++
			}
		}
		if len(serious) == 0 {
			fmt.Fprintf(b, "%s: no errors or warnings", shown)
		} else {
			fmt.Fprintf(b, "%s: %s", shown, plural(len(serious), "problem"))
		}
		if notes > 0 {
			fmt.Fprintf(b, " (and %s not shown)", plural(notes, "hint"))
		}
		b.WriteString(fromServer(fd))
		used = d.writeDiags(b, shown, serious, getDiagnosticsTokens, used)
	}
}
