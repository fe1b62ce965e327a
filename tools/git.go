package tools

// The git tools run the git binary against the repository holding a
// workspace root (`git -C <root>`), with no pager, no terminal prompts, no
// editor and no colour, under a timeout, with bounded output. git_status,
// git_diff and git_log only read; git_commit writes (access.Git).

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
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

// resultForInputErr converts a prepare error into a tool result.
func resultForInputErr(err error) (*Result, error) {
	var ie *jsonschema.InputError
	if errors.As(err, &ie) {
		return Errorf("%s", ie.Msg), nil
	}
	return nil, err
}

// GitStatusParams is the input of git_status.
type GitStatusParams struct {
	Path string `json:"path,omitempty" jsonschema:"description=Limit the status to this file or directory (default: the whole workspace root)."`
}

var gitStatusSchema = jsonschema.For[GitStatusParams]()

// GitStatusTool shows the working tree status.
type GitStatusTool struct{}

func (GitStatusTool) Name() string            { return "git_status" }
func (GitStatusTool) Description() string     { return gitStatusDescription }
func (GitStatusTool) Schema() json.RawMessage { return gitStatusSchema }
func (GitStatusTool) ReadOnly() bool          { return true }

func (GitStatusTool) Access(env *Env, input json.RawMessage) (access.Access, error) {
	p, err := jsonschema.Decode[GitStatusParams](input)
	if err != nil {
		return access.Access{}, err
	}
	_, rel, err := gitTarget(env, p.Path)
	if err != nil {
		return access.Access{}, err
	}
	return access.Access{Kind: access.Read, Paths: gitPathList(rel), Summary: "git status " + rel}, nil
}

func (GitStatusTool) Run(ctx context.Context, env *Env, input json.RawMessage) (*Result, error) {
	p, err := jsonschema.Decode[GitStatusParams](input)
	if err != nil {
		return resultForInputErr(err)
	}
	root, rel, err := gitTarget(env, p.Path)
	if err != nil {
		return resultForInputErr(err)
	}
	args := []string{"status", "--short", "--branch"}
	if rel != "" {
		args = append(args, "--", rel)
	}
	out, err := runGit(ctx, root, args...)
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
}

var gitDiffSchema = jsonschema.For[GitDiffParams]()

// GitDiffTool shows changes as a unified diff.
type GitDiffTool struct{}

func (GitDiffTool) Name() string            { return "git_diff" }
func (GitDiffTool) Description() string     { return gitDiffDescription }
func (GitDiffTool) Schema() json.RawMessage { return gitDiffSchema }
func (GitDiffTool) ReadOnly() bool          { return true }

func prepareGitDiff(env *Env, input json.RawMessage) (p GitDiffParams, root, rel string, err error) {
	if p, err = jsonschema.Decode[GitDiffParams](input); err != nil {
		return p, "", "", err
	}
	if err = checkGitRef(p.Ref); err != nil {
		return p, "", "", err
	}
	root, rel, err = gitTarget(env, p.Path)
	return p, root, rel, err
}

func (GitDiffTool) Access(env *Env, input json.RawMessage) (access.Access, error) {
	p, _, rel, err := prepareGitDiff(env, input)
	if err != nil {
		return access.Access{}, err
	}
	return access.Access{Kind: access.Read, Paths: gitPathList(rel), Summary: strings.TrimSpace("git diff " + p.Ref + " " + rel)}, nil
}

func (GitDiffTool) Run(ctx context.Context, env *Env, input json.RawMessage) (*Result, error) {
	p, root, rel, err := prepareGitDiff(env, input)
	if err != nil {
		return resultForInputErr(err)
	}
	args := []string{"diff", "--no-ext-diff", "--no-textconv"}
	if p.Staged {
		args = append(args, "--cached")
	}
	if p.Ref != "" {
		args = append(args, p.Ref)
	}
	args = append(args, "--")
	if rel != "" {
		args = append(args, rel)
	}
	out, err := runGit(ctx, root, args...)
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
}

var gitLogSchema = jsonschema.For[GitLogParams]()

// GitLogTool shows the commit history.
type GitLogTool struct{}

func (GitLogTool) Name() string            { return "git_log" }
func (GitLogTool) Description() string     { return gitLogDescription }
func (GitLogTool) Schema() json.RawMessage { return gitLogSchema }
func (GitLogTool) ReadOnly() bool          { return true }

func (GitLogTool) Access(env *Env, input json.RawMessage) (access.Access, error) {
	p, err := jsonschema.Decode[GitLogParams](input)
	if err != nil {
		return access.Access{}, err
	}
	_, rel, err := gitTarget(env, p.Path)
	if err != nil {
		return access.Access{}, err
	}
	return access.Access{Kind: access.Read, Paths: gitPathList(rel), Summary: strings.TrimSpace("git log " + rel)}, nil
}

func (GitLogTool) Run(ctx context.Context, env *Env, input json.RawMessage) (*Result, error) {
	p, err := jsonschema.Decode[GitLogParams](input)
	if err != nil {
		return resultForInputErr(err)
	}
	root, rel, err := gitTarget(env, p.Path)
	if err != nil {
		return resultForInputErr(err)
	}
	n := p.Count
	if n <= 0 {
		n = gitLogDefault
	}
	n = min(n, gitLogMax)
	args := []string{"log", fmt.Sprintf("-n%d", n), "--date=short", "--format=%h %ad %an%d%n    %s"}
	args = append(args, "--")
	if rel != "" {
		args = append(args, rel)
	}
	out, err := runGit(ctx, root, args...)
	return gitResult(out, err, "(no commits)")
}

// gitPathList returns []string{s}, or nil for "".
func gitPathList(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
