package acp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/tools"
)

// clientView reads files through the client's fs/read_text_file, so the
// agent sees unsaved editor buffers. The disk is read first: it says
// whether the file exists and bounds its size (a buffer of a file that
// does not exist on disk is not asked for), and a file that is not UTF-8
// text is served from the disk, since the protocol carries text only.
// ctx is the turn's: a cancelled prompt stops a read in flight.
type clientView struct {
	ss  *session
	ctx context.Context
}

func (v *clientView) Read(abs string) ([]byte, int32, error) {
	disk, version, err := (&tools.DiskView{}).Read(abs)
	if err != nil || !utf8.Valid(disk) {
		return disk, version, err
	}
	resp, err := v.ss.srv.conn.ReadTextFile(v.ctx, sdk.ReadTextFileRequest{SessionId: v.ss.id(), Path: abs})
	if err != nil {
		return nil, 0, fmt.Errorf("read %s through the editor: %w", abs, err)
	}
	if len(resp.Content) > tools.MaxFileSize {
		return nil, 0, fmt.Errorf("read %s: %w (%d bytes in the editor, limit %d)", abs, tools.ErrFileTooLarge, len(resp.Content), tools.MaxFileSize)
	}
	return []byte(resp.Content), tools.DiskVersion, nil
}

// editor is the session's Editor for one turn: through the client's
// fs/write_text_file when it offers it, else the disk, behind the turn's
// edit gate (gate.go).
func (ss *session) editor(throughClient bool, view tools.FileView, gate *editGate) tools.Editor {
	disk := tools.NewDiskEditorWith(ss.ws.Roots, tools.DiskEditorOptions{Written: ss.ws.Written, Warn: ss.srv.opts.Warn})
	var ed tools.Editor = disk
	if throughClient {
		ed = &clientEditor{ss: ss, view: view, disk: disk}
	}
	return gatedEditor{Editor: ed, ss: ss, gate: gate}
}

// clientEditor writes modified and created files with fs/write_text_file,
// so the changes land in the editor's buffers (and its undo history).
// The protocol has no delete or rename: a change set with either goes to
// the disk, all-or-nothing, through the DiskEditor, which checks the
// disk's content against what the change was computed from.
//
// Before writing, each file is read again through the view: a buffer that
// changed since the agent read it refuses the whole edit (nothing is
// written), as the other editors do.
type clientEditor struct {
	ss   *session
	view tools.FileView
	disk *tools.DiskEditor
}

func (e *clientEditor) Apply(ctx context.Context, label string, changes []tools.FileChange) (tools.ApplyResult, error) {
	for _, c := range changes {
		if c.Op == tools.OpDelete || c.Op == tools.OpRename {
			return e.disk.Apply(ctx, label, changes)
		}
	}
	for _, c := range changes {
		if reason := e.check(c); reason != "" {
			return tools.ApplyResult{Reason: reason}, nil
		}
	}
	var written []string
	for _, c := range changes {
		if c.Op == tools.OpCreate {
			// The client creates the file; its directory may not exist.
			if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
				return tools.ApplyResult{}, fmt.Errorf("apply %q: %w", label, err)
			}
		}
		_, err := e.ss.srv.conn.WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: e.ss.id(), Path: c.Path, Content: string(c.New)})
		if err != nil {
			if ctx.Err() != nil {
				return tools.ApplyResult{}, ctx.Err()
			}
			if len(written) == 0 {
				// Nothing changed: the model hears why and may retry.
				return tools.ApplyResult{Reason: fmt.Sprintf("the editor refused to write %s: %v", c.Path, err)}, nil
			}
			return tools.ApplyResult{}, fmt.Errorf("apply %q: %s was written but %s was not: %w", label, written[0], c.Path, err)
		}
		written = append(written, c.Path)
	}
	if e.ss.ws.Written != nil {
		e.ss.ws.Written(ctx, written)
	}
	return tools.ApplyResult{Applied: true}, nil
}

// check says why c cannot be applied ("" when it can).
func (e *clientEditor) check(c tools.FileChange) string {
	if len(c.New) > tools.MaxFileSize {
		return fmt.Sprintf("%s: new content is %d bytes, above the %d byte limit", c.Path, len(c.New), tools.MaxFileSize)
	}
	if !utf8.Valid(c.New) {
		return fmt.Sprintf("%s: the new content is not UTF-8 text, which the editor cannot take", c.Path)
	}
	cur, _, err := e.view.Read(c.Path)
	switch {
	case c.Op == tools.OpCreate && errors.Is(err, fs.ErrNotExist):
		return ""
	case c.Op == tools.OpCreate && err == nil:
		return fmt.Sprintf("%s: file changed since it was read; read it again (it exists now)", c.Path)
	case err != nil:
		return fmt.Sprintf("%s: %v", c.Path, err)
	case !bytes.Equal(cur, c.Old):
		return fmt.Sprintf("%s: file changed since it was read; read it again", c.Path)
	}
	return ""
}
