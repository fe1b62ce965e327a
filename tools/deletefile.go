package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

//go:embed desc/delete_file.md
var deleteFileDesc string

type deleteFileParams struct {
	Path string `json:"path" jsonschema:"description=File to delete: relative to the workspace root, or absolute inside it. Must be a regular file, not a directory or a symbolic link."`
}

// deleteFileTool deletes one file through the Editor, so the user sees the
// deletion and can undo it.
var deleteFileTool = New(
	Spec{Name: "delete_file", Description: deleteFileDesc},
	deleteFileAccess, deleteFileRun)

func deleteFileAccess(env *Env, p *deleteFileParams) (access.Access, error) {
	return pathAccess(env, access.Edit, p.Path, "delete")
}

func deleteFileRun(ctx context.Context, env *Env, p *deleteFileParams) (*Result, error) {
	abs, res := resolveFileArg(env, p.Path)
	if res != nil {
		return res, nil
	}
	shown := displayPath(env, abs)
	content, version, res := readWhole(env, abs, shown, "delete_file")
	if res != nil {
		return res, nil
	}
	change := FileChange{Op: OpDelete, Path: abs, Old: content, Version: version}
	return applyChanges(ctx, env, "delete "+shown, []FileChange{change}, fmt.Sprintf("Deleted %s (%s).", shown, sizeNote(content)))
}

// resolveFileArg resolves a model-supplied path naming an existing file
// that delete_file or move_file will act on. Resolve follows symbolic
// links, so a link inside the workspace would otherwise make the tool
// delete or move its target instead of the link: links are refused.
func resolveFileArg(env *Env, p string) (abs string, res *Result) {
	abs, _, res = resolveArg(env, p)
	if res != nil {
		return "", res
	}
	if names, target := namesSymlink(env, p); names {
		return "", Errorf("%s is a symbolic link (to %s); delete_file and move_file act on regular files only, so use the shell for the link itself", p, displayPath(env, target))
	}
	return abs, nil
}

// namesSymlink reports whether the last element of the model-supplied path
// p is a symbolic link, and where it resolves. It finds p's location as
// Roots.Resolve does (absolute, or below the first root where it exists)
// with only its parent directory's symlinks evaluated.
func namesSymlink(env *Env, p string) (bool, string) {
	clean := filepath.Clean(p)
	lexical := clean
	if !filepath.IsAbs(clean) {
		lexical = ""
		for _, root := range env.Roots.Paths() {
			if cand := filepath.Join(root, clean); lexists(cand) {
				lexical = cand
				break
			}
		}
	}
	base := filepath.Base(lexical)
	if lexical == "" || base == "." || base == ".." || base == string(filepath.Separator) {
		return false, ""
	}
	dir, _, err := env.Resolve(filepath.Dir(lexical))
	if err != nil {
		return false, ""
	}
	link := filepath.Join(dir, base)
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return false, ""
	}
	target, _, err := env.Resolve(link)
	if err != nil {
		target = link
	}
	return true, target
}

func lexists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// readWhole reads the file that delete_file or move_file will act on,
// binary or not, through env.Files: its content and version become the
// change's Old and Version, which the Editor checks for staleness. Every
// failure is a model-facing result; tool names the tool in messages.
func readWhole(env *Env, abs, shown, tool string) (content []byte, version int32, res *Result) {
	if env.Files == nil {
		return nil, 0, Errorf("file access is unavailable in this session")
	}
	content, version, err := env.Files.Read(abs)
	switch {
	case errors.Is(err, ErrIsDirectory):
		return nil, 0, Errorf("%s is a directory; %s acts on single files only: handle the files in it one by one, or use the shell if the whole directory must go", shown, tool)
	case errors.Is(err, ErrFileTooLarge):
		return nil, 0, tooLargeFor(shown, tool)
	case err != nil:
		return nil, 0, readFailure(shown, err)
	case len(content) > MaxFileSize:
		return nil, 0, tooLargeFor(shown, tool)
	}
	return content, version, nil
}

func tooLargeFor(shown, tool string) *Result {
	return Errorf("%s is above the %d MiB size limit; %s cannot act on it (the change carries the whole content so that it can be checked and undone): use the shell if you must", shown, MaxFileSize>>20, tool)
}

// sizeNote describes content for a result: lines and bytes, or bytes for
// a binary file.
func sizeNote(content []byte) string {
	if workspace.IsBinary(content) {
		return fmt.Sprintf("binary, %d bytes", len(content))
	}
	return fmt.Sprintf("%s, %d bytes", plural(ledger.CountLines(content), "line"), len(content))
}
