package lsp

import (
	"os"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/parleyhq/parley/workspace"
)

// columns converts the index's byte columns on a line to the client's
// encoding. *workspace.Lines and *wideLines implement it.
type columns interface {
	Character(line, byteCol uint32, enc workspace.Encoding) (uint32, error)
}

// wideLines holds only the lines of one file version that contain bytes
// above 0x7f; on every other line a byte column is already a UTF-16
// column. Answers that touch thousands of files (references to a common
// name) then need no file read for files seen before, and the cache stays
// small: even in GOROOT/src non-ASCII lines are a tiny share of the text.
type wideLines struct {
	hash  uint64 // xxhash of the content, as the index header records it
	lines map[uint32]*workspace.Lines
	size  int // bytes held, for the cache bound
}

func (w *wideLines) Character(line, byteCol uint32, enc workspace.Encoding) (uint32, error) {
	l, ok := w.lines[line]
	if !ok {
		return byteCol, nil
	}
	return l.Character(0, byteCol, enc)
}

// newWideLines indexes content's non-ASCII lines.
func newWideLines(content []byte, hash uint64) *wideLines {
	w := &wideLines{hash: hash, lines: map[uint32]*workspace.Lines{}}
	var line uint32
	start, wide := 0, false
	for i := 0; i <= len(content); i++ {
		if i < len(content) && content[i] != '\n' {
			wide = wide || content[i] >= 0x80
			continue
		}
		if wide {
			text := content[start:i]
			w.lines[line] = workspace.NewLines(text)
			w.size += len(text) + 64
		}
		line++
		start, wide = i+1, false
	}
	return w
}

// wideCache maps absolute paths to the wideLines of the version the index
// holds. An entry is valid while the index header's hash matches, so a
// hit costs no system call. It holds at most max bytes, the least
// recently used files going first. Safe for concurrent use.
type wideCache struct {
	mu  sync.Mutex
	lru *byteLRU[string, *wideLines]
}

// maxWideCache bounds the bytes of non-ASCII lines kept.
const maxWideCache = 32 << 20

func newWideCache(max int) *wideCache {
	return &wideCache{lru: newByteLRU[string, *wideLines](int64(max))}
}

// get returns the wide lines of abs at the indexed version hash, reading
// the file when they are not cached. ok is false when the disk no longer
// holds that version (or cannot be read); the caller then converts against
// the current content.
func (c *wideCache) get(abs string, hash uint64) (*wideLines, bool) {
	c.mu.Lock()
	w, ok := c.lru.get(abs)
	c.mu.Unlock()
	if ok && w.hash == hash {
		return w, true
	}
	content, err := readLimited(abs)
	if err != nil || xxhash.Sum64(content) != hash {
		return nil, false
	}
	w = newWideLines(content, hash)
	c.mu.Lock()
	c.lru.addIfFits(abs, w, int64(w.size+len(abs))+64)
	c.mu.Unlock()
	return w, true
}

// readLimited reads a file of at most maxConvertSize bytes.
func readLimited(abs string) ([]byte, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxConvertSize {
		return nil, os.ErrInvalid
	}
	return os.ReadFile(abs)
}
