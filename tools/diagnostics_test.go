package tools

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/tools/ledger"
)

// fakeDiagSource reports, for each file, one error per line holding
// "BAD" (message "bad thing") and one hint per line holding "HINT".
type fakeDiagSource struct {
	mu        sync.Mutex
	diagnosed []string // contents diagnosed, in order
	forgotten []string
	unsettled bool
}

func (f *fakeDiagSource) Diagnose(_ context.Context, files []DiagnosticFile) []FileDiagnostics {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []FileDiagnostics
	for _, file := range files {
		f.diagnosed = append(f.diagnosed, string(file.Content))
		fd := FileDiagnostics{Path: file.Path, Server: "fakels", Settled: !f.unsettled}
		if strings.HasSuffix(file.Path, ".md") {
			fd.Unsupported = true
		}
		for i, line := range splitLines(string(file.Content)) {
			if strings.Contains(line, "BAD") {
				fd.Diags = append(fd.Diags, Diagnostic{Line: i + 1, Column: strings.Index(line, "BAD") + 1, Severity: SeverityError, Source: "compiler", Message: "bad thing"})
			}
			if strings.Contains(line, "HINT") {
				fd.Diags = append(fd.Diags, Diagnostic{Line: i + 1, Column: 1, Severity: SeverityHint, Message: "a hint"})
			}
		}
		out = append(out, fd)
	}
	return out
}

func (f *fakeDiagSource) Forget(_ context.Context, paths []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgotten = append(f.forgotten, paths...)
}

func (f *fakeDiagSource) Timeout() time.Duration { return 2 * time.Second }

func TestDiagnosticsAfterEdit(t *testing.T) {
	w := ftNew(t, map[string]string{"a.go": "one\nBAD\nthree\n", "notes.md": "x\n"})
	src := &fakeDiagSource{}
	w.env.Diagnostics = NewDiagnostics(src)
	ctx := ledger.WithTurn(t.Context(), 1)
	run := func(tool Tool, in map[string]any) string {
		t.Helper()
		res, err := runTool(ctx, tool, w.env, ftInput(t, in))
		if err != nil || res.IsError {
			t.Fatalf("%v: %+v %v", in, res, err)
		}
		return res.Content
	}
	// An inserted line above shifts the old error: it is not new.
	out := run(editFileTool, map[string]any{"path": "a.go", "old_string": "one\n", "new_string": "zero\none\n"})
	ftContains(t, out, "Diagnostics after this edit:\na.go: no new errors or warnings (fakels)")
	if len(src.diagnosed) != 2 || src.diagnosed[0] != "one\nBAD\nthree\n" {
		t.Errorf("diagnosed %q, want the old content first", src.diagnosed)
	}
	// A second copy of the message is new; hints are not reported.
	out = run(editFileTool, map[string]any{"path": "a.go", "old_string": "three\n", "new_string": "BAD again\nHINT\n"})
	ftContains(t, out, "a.go: 1 new problem (fakels)\n  a.go:4:1 error [compiler] bad thing")
	if strings.Contains(out, "hint") {
		t.Errorf("a hint was reported:\n%s", out)
	}
	out = run(writeFileTool, map[string]any{"path": "a.go", "content": "fine\n"})
	ftContains(t, out, "a.go: 2 problems fixed, none new")
	// A file no server covers says nothing.
	out = run(writeFileTool, map[string]any{"path": "notes.md", "content": "BAD\n"})
	if strings.Contains(out, "Diagnostics") {
		t.Errorf("unsupported file reported:\n%s", out)
	}
	// A move forgets the old path and reports the new one.
	out = run(moveFileTool, map[string]any{"from": "a.go", "to": "b.go"})
	ftContains(t, out, "b.go: no new errors or warnings")
	if len(src.forgotten) != 1 || !strings.HasSuffix(src.forgotten[0], "a.go") {
		t.Errorf("forgotten %q", src.forgotten)
	}
	if got := w.env.Diagnostics.Touched(ctx); len(got) != 3 {
		t.Errorf("touched %q", got)
	}
	if got := w.env.Diagnostics.Touched(ledger.WithTurn(t.Context(), 2)); len(got) != 0 {
		t.Errorf("touched in another turn: %q", got)
	}
}

func TestDiagnosticsUnsettledAndBudget(t *testing.T) {
	w := ftNew(t, map[string]string{"a.go": "ok\n"})
	src := &fakeDiagSource{unsettled: true}
	w.env.Diagnostics = NewDiagnostics(src)
	res, err := runTool(t.Context(), writeFileTool, w.env, ftInput(t, map[string]any{"path": "a.go", "content": strings.Repeat("BAD\n", 500)}))
	if err != nil || res.IsError {
		t.Fatal(res, err)
	}
	ftContains(t, res.Content, "500 new problems (fakels); the server had not finished", "more (get_diagnostics shows them)")
	if n := w.env.Diagnostics.count(res.Content); n > editDiagnosticsTokens+100 {
		t.Errorf("report is %d tokens", n)
	}
}

func TestGetDiagnostics(t *testing.T) {
	w := ftNew(t, map[string]string{"a.go": "BAD\nHINT\n", "b.go": "fine\n", "c.md": "x"})
	ftFail(t, getDiagnosticsTool, w.env, map[string]any{}, "diagnostics are unavailable")
	w.env.Diagnostics = NewDiagnostics(&fakeDiagSource{})
	ctx := ledger.WithTurn(t.Context(), 3)
	res, err := runTool(ctx, getDiagnosticsTool, w.env, ftInput(t, map[string]any{}))
	if err != nil || !strings.Contains(res.Content, "No file was changed in this turn") {
		t.Fatalf("%+v %v", res, err)
	}
	out := ftOK(t, getDiagnosticsTool, w.env, map[string]any{"paths": []string{"a.go", "b.go", "c.md", "missing.go"}})
	ftContains(t, out, "missing.go does not exist", "a.go: 1 problem (and 1 hint not shown) (fakels)\n  a.go:1:1 error [compiler] bad thing",
		"b.go: no errors or warnings (fakels)", "c.md: no language server covers this file")
	ftFail(t, getDiagnosticsTool, w.env, map[string]any{"paths": []string{"../outside.go"}}, "outside")
	// With no paths: the files changed in this turn.
	if _, err := runTool(ctx, writeFileTool, w.env, ftInput(t, map[string]any{"path": "b.go", "content": "BAD\n"})); err != nil {
		t.Fatal(err)
	}
	res, err = runTool(ctx, getDiagnosticsTool, w.env, ftInput(t, map[string]any{}))
	if err != nil || !strings.Contains(res.Content, "b.go: 1 problem") || strings.Contains(res.Content, "a.go") {
		t.Fatalf("%+v %v", res, err)
	}
}
