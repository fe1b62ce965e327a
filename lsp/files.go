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
// and mtime on every use. It holds at most max bytes of content and line
// tables, the least recently used files going first. Safe for concurrent
// use.
type fileCache struct {
	mu  sync.Mutex
	lru *byteLRU[string, *fileText]
}

func newFileCache(max int) *fileCache {
	return &fileCache{lru: newByteLRU[string, *fileText](int64(max))}
}

// Bounds of the file cache and of the files read just to convert
// positions.
const (
	maxFileCache   = 64 << 20
	maxConvertSize = 16 << 20
)

// footprint estimates the bytes an entry for abs holds: the content, the
// line table and the bookkeeping.
func (t *fileText) footprint(abs string) int64 {
	return int64(len(t.content)+8*t.lines.Count()+len(abs)) + 128
}

func (c *fileCache) get(abs string) (*fileText, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e, ok := c.lru.get(abs)
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
	c.lru.addIfFits(abs, e, e.footprint(abs))
	c.mu.Unlock()
	return e, nil
}

func (c *fileCache) invalidate(abs string) {
	c.mu.Lock()
	c.lru.remove(abs)
	c.mu.Unlock()
}

func (c *fileCache) clear() {
	c.mu.Lock()
	c.lru.clear()
	c.mu.Unlock()
}

// text returns what the user sees of abs: the open buffer, else the disk.
func (s *Server) text(abs string) (*fileText, error) {
	if ov, ok := s.overlays.Get(abs); ok {
		return &fileText{content: ov.Content, lines: workspace.NewLines(ov.Content)}, nil
	}
	return s.files.get(abs)
}
