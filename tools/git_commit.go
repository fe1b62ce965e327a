package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
)

//go:embed desc/git_commit.md
var gitCommitDescription string

// GitCommitParams is the input of git_commit.
type GitCommitParams struct {
	Message string   `json:"message" jsonschema:"description=The commit message: a short summary line, optionally a blank line and a body."`
	Paths   []string `json:"paths,omitempty" jsonschema:"description=Files or directories to stage (git add) before committing. Without them only what is already staged is committed."`

	root string   // the root to run in
	rels []string // root-relative paths to stage
}

// gitCommitTool stages the given paths and commits the index.
var gitCommitTool = New(
	Spec{Name: "git_commit", Description: gitCommitDescription},
	gitCommitAccess, gitCommitRun)

// gitCommitAccess validates the commit and finds the root to run in and
// the root-relative paths to stage.
func gitCommitAccess(env *Env, p *GitCommitParams) (access.Access, error) {
	p.Message = strings.TrimSpace(p.Message)
	if p.Message == "" {
		return access.Access{}, inputErrorf("message is empty: write a summary of the change")
	}
	if strings.IndexByte(p.Message, 0) >= 0 {
		return access.Access{}, inputErrorf("message contains a NUL byte")
	}
	if len(p.Paths) == 0 {
		var err error
		p.root, _, err = gitTarget(env, "")
		if err != nil {
			return access.Access{}, err
		}
	}
	for _, path := range p.Paths {
		root, rel, err := gitTarget(env, path)
		if err != nil {
			return access.Access{}, err
		}
		if p.root != "" && root != p.root {
			return access.Access{}, inputErrorf("paths %q and %q are in different workspace roots; commit each root separately", p.Paths[0], path)
		}
		if rel == "" {
			rel = "."
		}
		p.root = root
		p.rels = append(p.rels, rel)
	}
	first, _, _ := strings.Cut(p.Message, "\n")
	summary := fmt.Sprintf("git commit %q", clipText(first, 100))
	if len(p.rels) > 0 {
		summary += " (staging " + clipText(strings.Join(p.rels, ", "), 200) + ")"
	}
	return access.Access{Kind: access.Git, Paths: p.rels, Summary: summary}, nil
}

func gitCommitRun(ctx context.Context, env *Env, p *GitCommitParams) (*Result, error) {
	if len(p.rels) > 0 {
		out, err := runGit(ctx, p.root, append([]string{"add", "--"}, p.rels...)...)
		if res, err := gitResult(out, err, ""); err != nil || res.IsError {
			if res != nil {
				res.Content = "staging failed, nothing was committed: " + res.Content
			}
			return res, err
		}
	}
	args := []string{"commit", "--no-edit", "-m", p.Message}
	for _, t := range env.CommitTrailers {
		// The default trailer.ifExists (addIfDifferentNeighbor) keeps a
		// trailer the model already wrote from appearing twice.
		args = append(args, "--trailer", t)
	}
	out, err := runGit(ctx, p.root, args...)
	return gitResult(out, err, "")
}
