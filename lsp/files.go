package lsp

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/parleyhq/parley/workspace"
)

// fileText is a file's content with its line table.
type fileText struct {
	content []byte
	lines   *workspace.Lines
	size    int64
	mtime   time.Time
}

// fileCache keeps recently converted files of the disk (not open
// documents): results in UTF-16 need each file's lines, and the same
// files come back request after request. Entries are validated by size
// and mtime on every use. Safe for concurrent use.
type fileCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]*fileText
}

func newFileCache(max int) *fileCache {
	return &fileCache{max: max, entries: map[string]*fileText{}}
}

// maxConvertSize bounds the files read just to convert positions.
const maxConvertSize = 16 << 20

func (c *fileCache) get(abs string) (*fileText, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e, ok := c.entries[abs]
	c.mu.Unlock()
	if ok && e.size == fi.Size() && e.mtime.Equal(fi.ModTime()) {
		return e, nil
	}
	if fi.Size() > maxConvertSize {
		return nil, fmt.Errorf("%s: %d bytes is too large", abs, fi.Size())
	}
	content, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	e = &fileText{content: content, lines: workspace.NewLines(content), size: fi.Size(), mtime: fi.ModTime()}
	c.mu.Lock()
	if len(c.entries) >= c.max {
		clear(c.entries) // crude, but bounded; hits come in bursts per request
	}
	c.entries[abs] = e
	c.mu.Unlock()
	return e, nil
}

func (c *fileCache) invalidate(abs string) {
	c.mu.Lock()
	delete(c.entries, abs)
	c.mu.Unlock()
}

func (c *fileCache) clear() {
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}

// text returns what the user sees of abs: the open buffer, else the disk.
func (s *Server) text(abs string) (*fileText, error) {
	if ov, ok := s.overlays.Get(abs); ok {
		return &fileText{content: ov.Content, lines: workspace.NewLines(ov.Content)}, nil
	}
	return s.files.get(abs)
}
