package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/tools/ledger"
)

//go:embed desc/write_file.md
var writeFileDesc string

type writeFileParams struct {
	Path    string `json:"path" jsonschema:"description=File to create or overwrite: relative to the workspace root, or absolute inside it. Missing parent directories are created."`
	Content string `json:"content" jsonschema:"description=The complete new content of the file."`
}

// writeFileTool creates a file or replaces its whole content.
var writeFileTool = New(
	Spec{Name: "write_file", Description: writeFileDesc},
	writeFileAccess, writeFileRun)

func writeFileAccess(env *Env, p *writeFileParams) (access.Access, error) {
	return pathAccess(env, access.Edit, p.Path, "write")
}

func writeFileRun(ctx context.Context, env *Env, p *writeFileParams) (*Result, error) {
	abs, _, res := resolveArg(env, p.Path)
	if res != nil {
		return res, nil
	}
	shown := displayPath(env, abs)
	if len(p.Content) > MaxFileSize {
		return Errorf("content is %d bytes, above the %d MiB limit", len(p.Content), MaxFileSize>>20), nil
	}
	if env.Files == nil {
		return Errorf("file access is unavailable in this session"), nil
	}
	old, version, err := env.Files.Read(abs)
	if errors.Is(err, fs.ErrNotExist) {
		change := FileChange{Op: OpCreate, Path: abs, New: []byte(p.Content)}
		msg := fmt.Sprintf("Created %s (%d lines, %d bytes).", shown, ledger.CountLines(change.New), len(change.New))
		return applyChanges(ctx, env, "write "+shown, []FileChange{change}, msg)
	}
	if err != nil {
		return readFailure(shown, err), nil
	}
	if string(old) == p.Content {
		return &Result{Content: fmt.Sprintf("%s already has exactly this content; nothing changed.", shown)}, nil
	}
	change := FileChange{Op: OpModify, Path: abs, Old: old, Version: version, New: []byte(p.Content)}
	msg := fmt.Sprintf("Wrote %s (%d lines, %d bytes; it had %d lines).", shown, ledger.CountLines(change.New), len(change.New), ledger.CountLines(old))
	return applyChanges(ctx, env, "write "+shown, []FileChange{change}, msg)
}
