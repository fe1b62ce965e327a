package index

import (
	"context"
	"fmt"

	"github.com/cespare/xxhash/v2"

	"github.com/parleyhq/parley/workspace"
)

// PutContent indexes src as the content of rel (slash-separated, relative
// to the root), replacing what the store holds for it: the path for an
// editor's unsaved buffer. The header records size -1 and mtime 0, which
// no file on disk has, so the next Index run that does not skip rel reads
// the file from disk again (and only rewrites records if its content
// differs). It returns ctx.Err() when cancelled before the write, leaving
// the previous records in place. See Store for what it may run alongside.
func (s *Store) PutContent(ctx context.Context, rel string, src []byte, opts Options) error {
	u := &FileUpdate{Header: FileHeader{Path: rel, Size: -1, ModTime: 0}}
	u.Header.Hash = xxhash.Sum64(src)
	u.Header.Lines = countLines(src)
	u.Header.ASCII = isASCII(src)
	if workspace.IsBinary(src) {
		u.Header.Status = StatusSkipped
		u.Detail.Reason = "binary"
	} else if !s.extractInto(ctx, u, src, opts) {
		return ctx.Err()
	}
	s.putMu.Lock()
	defer s.putMu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	w := s.NewWriter()
	if err := w.Put(u); err != nil {
		w.Close()
		return fmt.Errorf("index %s: %w", rel, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("index %s: %w", rel, err)
	}
	return nil
}

// RemovePath deletes every record of rel; an unknown path is not an error.
func (s *Store) RemovePath(rel string) error {
	s.putMu.Lock()
	defer s.putMu.Unlock()
	w := s.NewWriter()
	if err := w.Delete(rel); err != nil {
		w.Close()
		return fmt.Errorf("remove %s from the index: %w", rel, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("remove %s from the index: %w", rel, err)
	}
	return nil
}
