package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

//go:embed desc/git_commit.md
var gitCommitDescription string

// GitCommitParams is the input of git_commit.
type GitCommitParams struct {
	Message string   `json:"message" jsonschema:"description=The commit message: a short summary line, optionally a blank line and a body."`
	Paths   []string `json:"paths,omitempty" jsonschema:"description=Files or directories to stage (git add) before committing. Without them only what is already staged is committed."`
}

var gitCommitSchema = jsonschema.For[GitCommitParams]()

// GitCommitTool stages the given paths and commits the index.
type GitCommitTool struct{}

func (GitCommitTool) Name() string            { return "git_commit" }
func (GitCommitTool) Description() string     { return gitCommitDescription }
func (GitCommitTool) Schema() json.RawMessage { return gitCommitSchema }
func (GitCommitTool) ReadOnly() bool          { return false }

// gitCommitCall is a validated commit: the root to run in and the
// root-relative paths to stage.
type gitCommitCall struct {
	message string
	root    string
	rels    []string
}

func prepareGitCommit(env *Env, input json.RawMessage) (*gitCommitCall, error) {
	p, err := jsonschema.Decode[GitCommitParams](input)
	if err != nil {
		return nil, err
	}
	msg := strings.TrimSpace(p.Message)
	if msg == "" {
		return nil, inputErrorf("message is empty: write a summary of the change")
	}
	if strings.IndexByte(msg, 0) >= 0 {
		return nil, inputErrorf("message contains a NUL byte")
	}
	c := &gitCommitCall{message: msg}
	if len(p.Paths) == 0 {
		c.root, _, err = gitTarget(env, "")
		return c, err
	}
	for _, path := range p.Paths {
		root, rel, err := gitTarget(env, path)
		if err != nil {
			return nil, err
		}
		if c.root != "" && root != c.root {
			return nil, inputErrorf("paths %q and %q are in different workspace roots; commit each root separately", p.Paths[0], path)
		}
		if rel == "" {
			rel = "."
		}
		c.root = root
		c.rels = append(c.rels, rel)
	}
	return c, nil
}

func (GitCommitTool) Access(env *Env, input json.RawMessage) (access.Access, error) {
	c, err := prepareGitCommit(env, input)
	if err != nil {
		return access.Access{}, err
	}
	first, _, _ := strings.Cut(c.message, "\n")
	summary := fmt.Sprintf("git commit %q", clipText(first, 100))
	if len(c.rels) > 0 {
		summary += " (staging " + clipText(strings.Join(c.rels, ", "), 200) + ")"
	}
	return access.Access{Kind: access.Git, Paths: c.rels, Summary: summary}, nil
}

func (GitCommitTool) Run(ctx context.Context, env *Env, input json.RawMessage) (*Result, error) {
	c, err := prepareGitCommit(env, input)
	if err != nil {
		return resultForInputErr(err)
	}
	if len(c.rels) > 0 {
		out, err := runGit(ctx, c.root, append([]string{"add", "--"}, c.rels...)...)
		if res, err := gitResult(out, err, ""); err != nil || res.IsError {
			if res != nil {
				res.Content = "staging failed, nothing was committed: " + res.Content
			}
			return res, err
		}
	}
	out, err := runGit(ctx, c.root, "commit", "--no-edit", "-m", c.message)
	return gitResult(out, err, "")
}
