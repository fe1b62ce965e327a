package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/workspace"
)

// ftWorkspace is a temporary workspace wired like the terminal: files
// from disk, edits through a DiskEditor.
type ftWorkspace struct {
	root   string // canonical
	env    *Env
	editor *DiskEditor
}

// ftNew creates a workspace holding files (relative path -> content).
func ftNew(t *testing.T, files map[string]string) *ftWorkspace {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		ftWrite(t, dir, rel, content)
	}
	return ftOpen(t, dir)
}

// ftOpen is ftNew on an existing directory.
func ftOpen(t *testing.T, dir string) *ftWorkspace {
	t.Helper()
	roots, err := workspace.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	ed := NewDiskEditor(roots)
	return &ftWorkspace{
		root:   roots.Paths()[0],
		env:    &Env{Roots: roots, Files: &DiskView{}, Editor: ed, Todos: &TodoList{}},
		editor: ed,
	}
}

func ftWrite(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (w *ftWorkspace) path(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

func (w *ftWorkspace) read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(w.path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ftInput marshals a params value (a map or struct) to tool input.
func ftInput(t testing.TB, v any) json.RawMessage {
	t.Helper()
	if s, ok := v.(string); ok {
		return json.RawMessage(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runTool prepares and runs a call as the loop does, without a permission
// check: a Prepare error becomes the error result (the loop prefixes it
// with "invalid call of <tool>: ").
func runTool(ctx context.Context, tool Tool, env *Env, input json.RawMessage) (*Result, error) {
	c, err := tool.Prepare(env, input)
	if err != nil {
		return Errorf("%v", err), nil
	}
	return c.Run(ctx)
}

// accessOf prepares a call and returns its Access.
func accessOf(tool Tool, env *Env, input json.RawMessage) (access.Access, error) {
	c, err := tool.Prepare(env, input)
	if err != nil {
		return access.Access{}, err
	}
	return c.Access(), nil
}

// ftRun runs a tool and fails the test on a Go error.
func ftRun(t *testing.T, tool Tool, env *Env, input any) *Result {
	t.Helper()
	res, err := runTool(context.Background(), tool, env, ftInput(t, input))
	if err != nil {
		t.Fatalf("%s: Go error: %v", tool.Name(), err)
	}
	if res == nil {
		t.Fatalf("%s: nil result", tool.Name())
	}
	return res
}

// ftOK runs a tool that must succeed and returns its content.
func ftOK(t *testing.T, tool Tool, env *Env, input any) string {
	t.Helper()
	res := ftRun(t, tool, env, input)
	if res.IsError {
		t.Fatalf("%s: unexpected error result: %s", tool.Name(), res.Content)
	}
	return res.Content
}

// ftFail runs a tool that must report a model error containing want.
func ftFail(t *testing.T, tool Tool, env *Env, input any, want string) string {
	t.Helper()
	res := ftRun(t, tool, env, input)
	if !res.IsError {
		t.Fatalf("%s: expected an error result containing %q, got: %s", tool.Name(), want, res.Content)
	}
	if !strings.Contains(res.Content, want) {
		t.Fatalf("%s: error %q does not contain %q", tool.Name(), res.Content, want)
	}
	return res.Content
}

func ftContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("output does not contain %q:\n%s", w, got)
		}
	}
}
