package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

//go:embed desc/move_file.md
var moveFileDesc string

type moveFileParams struct {
	From string `json:"from" jsonschema:"description=File to move or rename: relative to the workspace root, or absolute inside it. Must be a regular file, not a directory or a symbolic link."`
	To   string `json:"to" jsonschema:"description=Its new path including the file name (not just a directory): relative to the workspace root, or absolute inside it. Must not exist; missing parent directories are created."`

	to string // absolute, resolved by moveFileAccess
}

// moveFileTool renames or moves one file through the Editor, so the user
// sees the change and can undo it.
var moveFileTool = New(
	Spec{Name: "move_file", Description: moveFileDesc},
	moveFileAccess, moveFileRun)

func moveFileAccess(env *Env, p *moveFileParams) (access.Access, error) {
	_, fromRel, res := resolveArg(env, p.From)
	if res != nil {
		return access.Access{}, &jsonschema.InputError{Msg: res.Content}
	}
	to, toRel, res := resolveArg(env, p.To)
	if res != nil {
		if _, _, err := env.Resolve(p.To); errors.Is(err, syscall.ENOTDIR) {
			// Resolve's own message names an lstat call and an absolute path.
			return access.Access{}, inputErrorf("cannot move to %s: one of its parent directories is a file", p.To)
		}
		return access.Access{}, &jsonschema.InputError{Msg: res.Content}
	}
	p.to = to
	return access.Access{Kind: access.Edit, Paths: []string{fromRel, toRel}, Summary: "move " + fromRel + " to " + toRel}, nil
}

func moveFileRun(ctx context.Context, env *Env, p *moveFileParams) (*Result, error) {
	from, res := resolveFileArg(env, p.From)
	if res != nil {
		return res, nil
	}
	to := p.to
	fromShown, toShown := displayPath(env, from), displayPath(env, to)
	if from == to {
		return Errorf("from and to are the same file (%s); nothing to move", fromShown), nil
	}
	content, version, res := readWhole(env, from, fromShown, "move_file")
	if res != nil {
		return res, nil
	}
	if res := checkMoveTarget(env, p.To, from, to, toShown); res != nil {
		return res, nil
	}
	msg := fmt.Sprintf("Moved %s to %s (%s).", fromShown, toShown, sizeNote(content))
	if dir := filepath.Dir(to); !lexists(dir) {
		msg += fmt.Sprintf(" Created directory %s.", displayPath(env, dir))
	}
	change := FileChange{Op: OpRename, Path: from, NewPath: to, Old: content, Version: version}
	return applyChanges(ctx, env, "move "+fromShown+" to "+toShown, []FileChange{change}, msg)
}

// checkMoveTarget refuses a target that exists (move_file never
// overwrites), whether on disk, as an editor buffer or as a dangling
// symbolic link. (A target below a file fails Resolve with ENOTDIR.)
func checkMoveTarget(env *Env, given, from, to, shown string) *Result {
	if names, _ := namesSymlink(env, given); names {
		return Errorf("%s exists (a symbolic link); move_file does not overwrite: choose another name", given)
	}
	_, _, err := env.Files.Read(to)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case errors.Is(err, ErrIsDirectory):
		return Errorf("%s is an existing directory; give the full new path including the file name (for example %s)", shown, filepath.ToSlash(filepath.Join(shown, filepath.Base(from))))
	default:
		// Readable or not (too large, a device, no permission), it exists.
		if fi1, err1 := os.Stat(from); err1 == nil {
			if fi2, err2 := os.Stat(to); err2 == nil && os.SameFile(fi1, fi2) {
				return Errorf("%s already exists and is the same file as %s (a name differing only in letter case on a case-insensitive file system, or a hard link); move_file cannot make this change: use the shell if it is needed", shown, displayPath(env, from))
			}
		}
		return Errorf("%s already exists; move_file does not overwrite: choose another name, or delete it first with delete_file", shown)
	}
	return nil
}
