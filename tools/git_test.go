package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
	"github.com/parleyhq/parley/workspace"

	"github.com/parleyhq/parley/internal/testenv"
)

// gitTestRepo creates a repository in a fresh workspace root with an
// isolated git configuration and a fixed identity.
func gitTestRepo(t *testing.T) (*Env, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Need(t, "git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Test Author")
	t.Setenv("GIT_AUTHOR_EMAIL", "author@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Test Author")
	t.Setenv("GIT_COMMITTER_EMAIL", "author@example.com")
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	roots, err := workspace.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &Env{Roots: roots}, roots.Paths()[0]
}

func gitWrite(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitRun(t *testing.T, tool Tool, env *Env, input any) *Result {
	t.Helper()
	b, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runTool(context.Background(), tool, env, b)
	if err != nil {
		t.Fatalf("%s: %v", tool.Name(), err)
	}
	return res
}

func TestGitWorkflow(t *testing.T) {
	env, root := gitTestRepo(t)
	gitWrite(t, root, "a.txt", "one\n")
	gitWrite(t, root, "src/b.go", "package b\n")

	res := gitRun(t, gitStatusTool, env, GitStatusParams{})
	if res.IsError || !strings.Contains(res.Content, "?? a.txt") || !strings.Contains(res.Content, "?? src/") {
		t.Fatalf("status = %+v", res)
	}

	res = gitRun(t, gitCommitTool, env, GitCommitParams{Message: "first commit\n\nwith a body", Paths: []string{"a.txt", "src"}})
	if res.IsError || !strings.Contains(res.Content, "first commit") {
		t.Fatalf("commit = %+v", res)
	}
	res = gitRun(t, gitStatusTool, env, GitStatusParams{})
	if res.IsError || !strings.Contains(res.Content, "## main") || !strings.Contains(res.Content, "clean") {
		t.Errorf("status after commit = %+v", res)
	}

	gitWrite(t, root, "a.txt", "two\n")
	res = gitRun(t, gitDiffTool, env, GitDiffParams{})
	if res.IsError || !strings.Contains(res.Content, "-one") || !strings.Contains(res.Content, "+two") {
		t.Errorf("diff = %+v", res)
	}
	res = gitRun(t, gitDiffTool, env, GitDiffParams{Staged: true})
	if res.IsError || res.Content != "(no differences)" {
		t.Errorf("staged diff before add = %+v", res)
	}
	res = gitRun(t, gitDiffTool, env, GitDiffParams{Path: "src"})
	if res.Content != "(no differences)" {
		t.Errorf("diff limited to src = %+v", res)
	}

	res = gitRun(t, gitCommitTool, env, GitCommitParams{Message: "second", Paths: []string{"a.txt"}})
	if res.IsError {
		t.Fatalf("second commit = %+v", res)
	}
	res = gitRun(t, gitDiffTool, env, GitDiffParams{Ref: "HEAD~1..HEAD"})
	if res.IsError || !strings.Contains(res.Content, "+two") {
		t.Errorf("diff of a range = %+v", res)
	}

	res = gitRun(t, gitLogTool, env, GitLogParams{})
	if res.IsError || !strings.Contains(res.Content, "second") || !strings.Contains(res.Content, "first commit") ||
		!strings.Contains(res.Content, "Test Author") {
		t.Errorf("log = %+v", res)
	}
	res = gitRun(t, gitLogTool, env, GitLogParams{Count: 1})
	if strings.Contains(res.Content, "first commit") {
		t.Errorf("count 1 shows two commits: %q", res.Content)
	}
	res = gitRun(t, gitLogTool, env, GitLogParams{Path: "src"})
	if strings.Contains(res.Content, "second") || !strings.Contains(res.Content, "first commit") {
		t.Errorf("log of src = %q", res.Content)
	}

	res = gitRun(t, gitCommitTool, env, GitCommitParams{Message: "nothing"})
	if !res.IsError || !strings.Contains(res.Content, "nothing") {
		t.Errorf("empty commit = %+v", res)
	}
}

func TestGitCommitValidation(t *testing.T) {
	env, root := gitTestRepo(t)
	gitWrite(t, root, "a.txt", "x")
	outside := t.TempDir()
	for _, in := range []string{
		`{"message": ""}`,
		`{"message": "  \n\t "}`,
		`{"paths": ["a.txt"]}`,
		`{"message": "m", "paths": ["../x"]}`,
		`{"message": "m", "paths": ["` + outside + `"]}`,
		`{"message": "m", "extra": 1}`,
	} {
		_, err := accessOf(gitCommitTool, env, json.RawMessage(in))
		var ie *jsonschema.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: Access err = %v, want an InputError", in, err)
		}
		res, err := runTool(context.Background(), gitCommitTool, env, json.RawMessage(in))
		if err != nil || !res.IsError {
			t.Errorf("%s: Run = %+v, %v", in, res, err)
		}
	}
	a, err := accessOf(gitCommitTool, env, json.RawMessage(`{"message": "add a\n\nbody", "paths": ["a.txt"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != access.Git || len(a.Paths) != 1 || a.Paths[0] != "a.txt" || !strings.Contains(a.Summary, `"add a"`) {
		t.Errorf("Access = %+v", a)
	}
	out, _ := exec.Command("git", "-C", root, "log", "--oneline").CombinedOutput()
	if strings.TrimSpace(string(out)) != "" && !strings.Contains(string(out), "does not have any commits") {
		t.Errorf("a refused commit was made: %s", out)
	}
}

func TestGitReadToolsAccess(t *testing.T) {
	env, _ := gitTestRepo(t)
	for _, tc := range []struct {
		tool  Tool
		input string
	}{
		{gitStatusTool, `{}`},
		{gitDiffTool, `{"path": "src", "staged": true}`},
		{gitLogTool, `{"count": 5}`},
	} {
		a, err := accessOf(tc.tool, env, json.RawMessage(tc.input))
		if err != nil {
			t.Errorf("%s: %v", tc.tool.Name(), err)
			continue
		}
		if a.Kind != access.Read || !tc.tool.ReadOnly() {
			t.Errorf("%s: kind %s, read-only %v", tc.tool.Name(), a.Kind, tc.tool.ReadOnly())
		}
	}
	for _, in := range []string{`{"ref": "--output=/tmp/x"}`, `{"ref": "a b"}`, `{"path": "../.."}`} {
		if _, err := accessOf(gitDiffTool, env, json.RawMessage(in)); err == nil {
			t.Errorf("git_diff %s accepted", in)
		}
	}
	if _, err := accessOf(gitLogTool, env, json.RawMessage(`{"count": 201}`)); err == nil {
		t.Error("git_log count 201 accepted")
	}
}

func TestGitOutsideRepository(t *testing.T) {
	_, _ = gitTestRepo(t) // isolates the git configuration
	dir := t.TempDir()
	roots, err := workspace.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(roots.Paths()[0]))
	res := gitRun(t, gitStatusTool, &Env{Roots: roots}, GitStatusParams{})
	if !res.IsError || !strings.Contains(res.Content, "not a git repository") {
		t.Errorf("status outside a repository = %+v", res)
	}
}

// TestGitPathsAreLiteral commits a file whose name is pathspec magic:
// staging it must stage that file only, not what the magic selects.
func TestGitPathsAreLiteral(t *testing.T) {
	env, root := gitTestRepo(t)
	gitWrite(t, root, ":(glob)*.txt", "magic\n")
	gitWrite(t, root, "other.txt", "other\n")
	res := gitRun(t, gitCommitTool, env, GitCommitParams{Message: "only the odd name", Paths: []string{":(glob)*.txt"}})
	if res.IsError {
		t.Fatalf("commit = %+v", res)
	}
	res = gitRun(t, gitStatusTool, env, GitStatusParams{})
	if !strings.Contains(res.Content, "?? other.txt") {
		t.Errorf("other.txt was staged through pathspec magic: %q", res.Content)
	}
}

// Env.CommitTrailers (parley loop's credit) end every commit's message,
// once even when the model wrote the same trailer itself.
func TestGitCommitTrailers(t *testing.T) {
	env, root := gitTestRepo(t)
	const credit = "Co-authored-by: parley <parley@users.noreply.github.com>"
	env.CommitTrailers = []string{credit}
	for i, msg := range []string{"plain", "with the trailer\n\n" + credit} {
		gitWrite(t, root, "a.txt", fmt.Sprint(i))
		if res := gitRun(t, gitCommitTool, env, GitCommitParams{Message: msg, Paths: []string{"a.txt"}}); res.IsError {
			t.Fatalf("commit: %s", res.Content)
		}
		out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%B").Output()
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(out), credit); n != 1 || !strings.HasSuffix(strings.TrimSpace(string(out)), credit) {
			t.Errorf("message %q: commit message\n%s\nhas the trailer %d times", msg, out, n)
		}
	}
}
