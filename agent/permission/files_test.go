package permission

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

func guardWorkspace(t *testing.T) *workspace.Roots {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"secrets/key.txt":  "TOKEN=hunter2\n",
		"src/a.go":         "package a // TOKEN is read from the environment\n",
		"src/secrets/b.go": "package secrets // TOKEN\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := workspace.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	return roots
}

func TestGuardFiles(t *testing.T) {
	roots := guardWorkspace(t)
	root := roots.Paths()[0]
	tests := []struct {
		name   string
		deny   []string
		denied []string // of secrets/key.txt, src/a.go, src/secrets/b.go
	}{
		{"no rules", nil, nil},
		{"a read glob", []string{"read(secrets/**)"}, []string{"secrets/key.txt"}},
		{"a read glob at any depth", []string{"read(**/secrets/**)"}, []string{"secrets/key.txt", "src/secrets/b.go"}},
		{"every read", []string{"read"}, []string{"secrets/key.txt", "src/a.go", "src/secrets/b.go"}},
		{"a rule for one tool is that tool's", []string{"read_file(secrets/**)"}, nil},
		{"edit rules do not stop reads", []string{"edit(secrets/**)"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			view := mustPolicy(t, ModeDefault, Rules{Deny: tt.deny}).GuardFiles(&tools.DiskView{}, roots)
			for _, rel := range []string{"secrets/key.txt", "src/a.go", "src/secrets/b.go"} {
				_, _, err := view.Read(filepath.Join(root, filepath.FromSlash(rel)))
				wantDenied := false
				for _, d := range tt.denied {
					wantDenied = wantDenied || d == rel
				}
				if gotDenied := errors.Is(err, fs.ErrPermission); gotDenied != wantDenied || (!wantDenied && err != nil) {
					t.Errorf("Read(%s) = %v, want denied=%v", rel, err, wantDenied)
				}
			}
		})
	}
}

// TestGuardFilesKeepsSearchesOut runs grep over the whole workspace, which
// the policy allows (it names ".", not a denied path): the guarded view
// keeps the denied file's content out of the result.
func TestGuardFilesKeepsSearchesOut(t *testing.T) {
	roots := guardWorkspace(t)
	p := mustPolicy(t, ModeDefault, Rules{Deny: []string{"read(secrets/**)"}})
	env := &tools.Env{Roots: roots, Files: p.GuardFiles(&tools.DiskView{}, roots)}
	if d, reason := p.Decide("grep", true, access.Access{Kind: access.Read, Paths: []string{"."}}); d != DecisionAllow {
		t.Fatalf("grep over the workspace: %s (%s)", d, reason)
	}
	res, err := runFileTool(t, env, "grep", `{"pattern":"TOKEN"}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Content, "hunter2") || !strings.Contains(res.Content, "src/a.go") {
		t.Errorf("grep shows:\n%s", res.Content)
	}
	res, err = runFileTool(t, env, "read_file", `{"path":"secrets/key.txt"}`)
	if err != nil || !res.IsError || strings.Contains(res.Content, "hunter2") {
		t.Errorf("read_file of the denied file = %+v, %v", res, err)
	}
}

// runFileTool prepares and runs a call of one of tools.FileTools.
func runFileTool(t *testing.T, env *tools.Env, name, input string) (*tools.Result, error) {
	t.Helper()
	reg, err := tools.NewRegistry(tools.FileTools()...)
	if err != nil {
		t.Fatal(err)
	}
	tool, ok := reg.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	c, err := tool.Prepare(env, []byte(input))
	if err != nil {
		t.Fatalf("%s %s: %v", name, input, err)
	}
	return c.Run(context.Background())
}
