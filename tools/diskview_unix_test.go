//go:build unix

package tools

import (
	"syscall"
	"testing"

	"github.com/parleyhq/parley/internal/testenv"
)

// TestReadFIFO checks that a named pipe is refused instead of blocking the
// read forever.
func TestReadFIFO(t *testing.T) {
	w := ftNew(t, nil)
	if err := syscall.Mkfifo(w.path("pipe"), 0o644); err != nil {
		testenv.SkipPlatform(t, "mkfifo: %v", err)
	}
	ftFail(t, readFileTool, w.env, map[string]any{"path": "pipe"}, "not a regular file")
	ftFail(t, editFileTool, w.env, map[string]any{"path": "pipe", "old_string": "a", "new_string": "b"}, "not a regular file")
	ftContains(t, ftOK(t, listDirTool, w.env, map[string]any{}), "othr          -  pipe")
}
