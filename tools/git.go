package tools

// The git tools run the git binary against the repository holding a
// workspace root (`git -C <root>`), with no pager, no terminal prompts, no
// editor and no colour, under a timeout, with bounded output. git_status,
// git_diff and git_log only read; git_commit writes (access.Git).

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/access"
)

var (
	//go:embed desc/git_status.md
	gitStatusDescription string
	//go:embed desc/git_diff.md
	gitDiffDescription string
	//go:embed desc/git_log.md
	gitLogDescription string
)

const (
	// gitTimeout bounds one git invocation.
	gitTimeout = 60 * time.Second
	// gitLogDefault and gitLogMax bound git_log's count.
	gitLogDefault = 20
	gitLogMax     = 200
)

// gitOutput is one finished git invocation.
type gitOutput struct {
	text     string
	exitCode int
}

// errGitMissing reports that the git binary is not installed.
var errGitMissing = errors.New("git is not installed (no git in PATH)")

// runGit runs git in dir with the given arguments. A non-zero exit is not
// an error (the caller reports it to the model); a missing binary is
// errGitMissing; ctx cancellation kills git.
func runGit(ctx context.Context, dir string, args ...string) (gitOutput, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return gitOutput{}, errGitMissing
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	full := append([]string{"-C", dir, "--no-pager", "-c", "color.ui=false", "-c", "core.quotepath=off"}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	// Pathspecs are workspace paths checked by Env.Resolve, never patterns:
	// GIT_LITERAL_PATHSPECS keeps a file named ":(top)x" or "*" literal.
	cmd.Env = append(childEnviron(),
		"GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat", "GIT_EDITOR=true",
		"GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1", "LC_ALL=C")
	out := &cappedOutput{head: shellOutputHead, tail: shellOutputTail}
	w := cappedWriter{out}
	cmd.Stdout, cmd.Stderr = w, w
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	text, _ := out.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return gitOutput{}, fmt.Errorf("git %s: %w", args[0], ctx.Err())
	case errors.As(err, &exit):
		return gitOutput{text: text, exitCode: exit.ExitCode()}, nil
	case err != nil:
		return gitOutput{}, fmt.Errorf("git %s: %w", args[0], err)
	}
	return gitOutput{text: text}, nil
}

// cappedWriter adapts cappedOutput to io.Writer.
type cappedWriter struct{ c *cappedOutput }

func (w cappedWriter) Write(p []byte) (int, error) {
	w.c.add(bytes.Clone(p))
	return len(p), nil
}

// gitTarget resolves an optional workspace path to the root to run git in
// and the root-relative pathspec ("" for the whole root).
func gitTarget(env *Env, p string) (root, rel string, err error) {
	if env == nil || env.Roots == nil {
		return "", "", inputErrorf("no workspace roots are configured")
	}
	_, root, rel, err = env.Roots.Resolve(p)
	if err != nil {
		return "", "", inputErrorf("path: %v", err)
	}
	if rel == "." {
		rel = ""
	}
	return root, rel, nil
}

// gitResult turns a git run into a tool result; a failed run or a missing
// git is a model-facing error.
func gitResult(out gitOutput, err error, empty string) (*Result, error) {
	if errors.Is(err, errGitMissing) {
		return Errorf("%v", err), nil
	}
	if errors.Is(err, context.Canceled) {
		return nil, err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Errorf("git did not finish within %s", gitTimeout), nil
	}
	if err != nil {
		return nil, err
	}
	text := strings.TrimRight(out.text, "\n")
	if out.exitCode != 0 {
		return Errorf("git failed (exit code %d):\n%s", out.exitCode, text), nil
	}
	if text == "" {
		text = empty
	}
	return &Result{Content: text}, nil
}

// gitScope is the root a git tool runs in and the root-relative pathspec
// ("" for the whole root), completed by the tool's describe function.
type gitScope struct {
	root, rel string
}

// resolve sets the scope from an optional workspace path.
func (g *gitScope) resolve(env *Env, path string) (err error) {
	g.root, g.rel, err = gitTarget(env, path)
	return err
}

// GitStatusParams is the input of git_status.
type GitStatusParams struct {
	Path string `json:"path,omitempty" jsonschema:"description=Limit the status to this file or directory (default: the whole workspace root)."`
	gitScope
}

// gitStatusTool shows the working tree status.
var gitStatusTool = New(
	Spec{Name: "git_status", Description: gitStatusDescription, ReadOnly: true},
	gitStatusAccess, gitStatusRun)

func gitStatusAccess(env *Env, p *GitStatusParams) (access.Access, error) {
	if err := p.resolve(env, p.Path); err != nil {
		return access.Access{}, err
	}
	return access.Access{Kind: access.Read, Paths: gitPathList(p.rel), Summary: "git status " + p.rel}, nil
}

func gitStatusRun(ctx context.Context, env *Env, p *GitStatusParams) (*Result, error) {
	args := []string{"status", "--short", "--branch"}
	if p.rel != "" {
		args = append(args, "--", p.rel)
	}
	out, err := runGit(ctx, p.root, args...)
	res, err := gitResult(out, err, "")
	if res != nil && !res.IsError && !strings.Contains(strings.TrimPrefix(res.Content, "##"), "\n") {
		res.Content += "\n(clean: nothing to commit)"
	}
	return res, err
}

// GitDiffParams is the input of git_diff.
type GitDiffParams struct {
	Path   string `json:"path,omitempty" jsonschema:"description=Limit the diff to this file or directory."`
	Staged bool   `json:"staged,omitempty" jsonschema:"description=Show the staged changes (the index) instead of the unstaged ones."`
	Ref    string `json:"ref,omitempty" jsonschema:"description=Compare against this commit, branch or tag (HEAD~1, main, a..b)."`
	gitScope
}

// gitDiffTool shows changes as a unified diff.
var gitDiffTool = New(
	Spec{Name: "git_diff", Description: gitDiffDescription, ReadOnly: true},
	gitDiffAccess, gitDiffRun)

func gitDiffAccess(env *Env, p *GitDiffParams) (access.Access, error) {
	if err := checkGitRef(p.Ref); err != nil {
		return access.Access{}, err
	}
	if err := p.resolve(env, p.Path); err != nil {
		return access.Access{}, err
	}
	return access.Access{Kind: access.Read, Paths: gitPathList(p.rel), Summary: strings.TrimSpace("git diff " + p.Ref + " " + p.rel)}, nil
}

func gitDiffRun(ctx context.Context, env *Env, p *GitDiffParams) (*Result, error) {
	args := []string{"diff", "--no-ext-diff", "--no-textconv"}
	if p.Staged {
		args = append(args, "--cached")
	}
	if p.Ref != "" {
		args = append(args, p.Ref)
	}
	args = append(args, "--")
	if p.rel != "" {
		args = append(args, p.rel)
	}
	out, err := runGit(ctx, p.root, args...)
	return gitResult(out, err, "(no differences)")
}

// checkGitRef refuses refs that git would read as options or that cannot
// be revisions.
func checkGitRef(ref string) error {
	switch {
	case ref == "":
		return nil
	case strings.HasPrefix(ref, "-"):
		return inputErrorf("ref %q must not start with '-'", ref)
	case len(ref) > 256:
		return inputErrorf("ref is longer than 256 bytes")
	case strings.ContainsFunc(ref, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return inputErrorf("ref %q must not contain spaces or control characters", ref)
	}
	return nil
}

// GitLogParams is the input of git_log.
type GitLogParams struct {
	Count int    `json:"count,omitempty" jsonschema:"minimum=1,maximum=200,description=How many commits to show, newest first (default 20, at most 200)."`
	Path  string `json:"path,omitempty" jsonschema:"description=Only commits that touch this file or directory."`
	gitScope
}

// gitLogTool shows the commit history.
var gitLogTool = New(
	Spec{Name: "git_log", Description: gitLogDescription, ReadOnly: true},
	gitLogAccess, gitLogRun)

func gitLogAccess(env *Env, p *GitLogParams) (access.Access, error) {
	if err := p.resolve(env, p.Path); err != nil {
		return access.Access{}, err
	}
	return access.Access{Kind: access.Read, Paths: gitPathList(p.rel), Summary: strings.TrimSpace("git log " + p.rel)}, nil
}

func gitLogRun(ctx context.Context, env *Env, p *GitLogParams) (*Result, error) {
	n := p.Count
	if n <= 0 {
		n = gitLogDefault
	}
	n = min(n, gitLogMax)
	args := []string{"log", fmt.Sprintf("-n%d", n), "--date=short", "--format=%h %ad %an%d%n    %s"}
	args = append(args, "--")
	if p.rel != "" {
		args = append(args, p.rel)
	}
	out, err := runGit(ctx, p.root, args...)
	return gitResult(out, err, "(no commits)")
}

// gitPathList returns []string{s}, or nil for "".
func gitPathList(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
