package tools

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

//go:embed desc/file_info.md
var fileInfoDesc string

type fileInfoParams struct {
	Path string `json:"path" jsonschema:"description=File or directory: relative to the workspace root, or absolute inside it."`
}

// fileInfoTool reports a file's metadata and index status.
var fileInfoTool = New(
	Spec{Name: "file_info", Description: fileInfoDesc, ReadOnly: true},
	fileInfoAccess, fileInfoRun)

func fileInfoAccess(env *Env, p *fileInfoParams) (access.Access, error) {
	return pathAccess(env, access.Read, p.Path, "inspect")
}

func fileInfoRun(ctx context.Context, env *Env, p *fileInfoParams) (*Result, error) {
	abs, rel, res := resolveArg(env, p.Path)
	if res != nil {
		return res, nil
	}
	shown := displayPath(env, abs)
	fi, err := os.Stat(abs)
	if err != nil {
		return readFailure(shown, err), nil
	}
	var b strings.Builder
	field := func(k, v string) { fmt.Fprintf(&b, "%-10s %s\n", k+":", v) }
	field("path", shown)
	field("modified", fi.ModTime().UTC().Format(time.RFC3339))
	field("mode", fi.Mode().String())
	if fi.IsDir() {
		field("type", "directory")
		if entries, err := os.ReadDir(abs); err == nil {
			field("entries", fmt.Sprint(len(entries)))
		}
		return &Result{Content: b.String()}, nil
	}
	field("type", "file")
	field("size", fmt.Sprintf("%d bytes", fi.Size()))
	var head []byte
	switch {
	case env.Files == nil:
		field("content", "not read (file access is unavailable)")
	case fi.Size() > MaxFileSize:
		field("content", fmt.Sprintf("not read (above the %d MiB limit)", MaxFileSize>>20))
	default:
		content, version, err := env.Files.Read(abs)
		if err != nil {
			field("content", "unreadable: "+strings.TrimPrefix(readFailure(shown, err).Content, shown+" "))
			break
		}
		head = content[:min(len(content), 512)]
		if version != DiskVersion {
			field("buffer", fmt.Sprintf("open in the editor with unsaved changes (version %d, %d bytes)", version, len(content)))
		}
		if workspace.IsBinary(content) {
			field("binary", "yes")
		} else {
			field("binary", "no")
			field("lines", fmt.Sprint(ledger.CountLines(content)))
		}
	}
	field("language", cmp.Or(workspace.DetectLanguage(rel, head), "unknown"))
	indexInfo(env, abs, fi, field)
	return &Result{Content: b.String()}, nil
}

// indexInfo adds what the index knows about the file, if there is one.
func indexInfo(env *Env, abs string, fi os.FileInfo, field func(k, v string)) {
	if env.Index == nil {
		field("indexed", "unknown (no index in this session)")
		return
	}
	store, rel, ok := env.Index.StoreFor(abs)
	if !ok {
		field("indexed", "no (outside every indexed root)")
		return
	}
	h, ok := store.Header(rel)
	if !ok {
		field("indexed", "no")
		return
	}
	state := h.Status.String()
	if h.Size != fi.Size() || h.ModTime != fi.ModTime().UnixNano() {
		state += ", stale (the file changed since it was indexed)"
	}
	field("indexed", fmt.Sprintf("yes (%s, %d symbols, %d references)", state, h.Symbols, h.Refs))
}
