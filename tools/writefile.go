package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

//go:embed desc/write_file.md
var writeFileDesc string

type writeFileParams struct {
	Path    string `json:"path" jsonschema:"description=File to create or overwrite: relative to the workspace root, or absolute inside it. Missing parent directories are created."`
	Content string `json:"content" jsonschema:"description=The complete new content of the file."`
}

// WriteFileTool creates a file or replaces its whole content.
type WriteFileTool struct{}

var writeFileSchema = jsonschema.For[writeFileParams]()

func (WriteFileTool) Name() string            { return "write_file" }
func (WriteFileTool) Description() string     { return writeFileDesc }
func (WriteFileTool) Schema() json.RawMessage { return writeFileSchema }
func (WriteFileTool) ReadOnly() bool          { return false }

func (WriteFileTool) Access(env *Env, input json.RawMessage) (access.Access, error) {
	p, err := jsonschema.Decode[writeFileParams](input)
	if err != nil {
		return access.Access{}, err
	}
	return pathAccess(env, access.Edit, p.Path, "write")
}

func (WriteFileTool) Run(ctx context.Context, env *Env, input json.RawMessage) (*Result, error) {
	p, err := jsonschema.Decode[writeFileParams](input)
	if err != nil {
		return Errorf("%v", err), nil
	}
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
		msg := fmt.Sprintf("Created %s (%d lines, %d bytes).", shown, lineCount(change.New), len(change.New))
		return applyChanges(ctx, env, "write "+shown, []FileChange{change}, msg)
	}
	if err != nil {
		return readFailure(shown, err), nil
	}
	if string(old) == p.Content {
		return &Result{Content: fmt.Sprintf("%s already has exactly this content; nothing changed.", shown)}, nil
	}
	change := FileChange{Op: OpModify, Path: abs, Old: old, Version: version, New: []byte(p.Content)}
	msg := fmt.Sprintf("Wrote %s (%d lines, %d bytes; it had %d lines).", shown, lineCount(change.New), len(change.New), lineCount(old))
	return applyChanges(ctx, env, "write "+shown, []FileChange{change}, msg)
}
