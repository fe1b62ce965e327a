package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"time"
)

// The updater writes open documents' buffers to the store. Each change
// gets a generation number; a request about a document waits until the
// store holds the generation the document had when the request arrived
// (awaitDoc), which takes milliseconds, not the length of an index run.

// scheduleDoc records that rel's buffer changed; a write already in
// flight for an older generation is cancelled.
func (f *folder) scheduleDoc(rel string) {
	f.mu.Lock()
	f.gen++
	f.want[rel] = f.gen
	f.wantAt[rel] = time.Now()
	if c, ok := f.inflight[rel]; ok {
		c()
	}
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// forgetDoc drops rel's updater state when the document closes.
func (f *folder) forgetDoc(rel string) {
	f.mu.Lock()
	if c, ok := f.inflight[rel]; ok {
		c()
	}
	delete(f.want, rel)
	delete(f.wantAt, rel)
	delete(f.stored, rel)
	f.broadcastLocked()
	f.mu.Unlock()
}

func (f *folder) broadcastLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// nextDirty picks a document whose wanted generation is not stored yet.
func (f *folder) nextDirty() (rel string, gen uint64, ctx context.Context, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for r, g := range f.want {
		if f.stored[r] < g {
			c, cancel := context.WithCancel(f.ctx)
			f.inflight[r] = cancel
			return r, g, c, true
		}
	}
	return "", 0, nil, false
}

// updateLoop is the folder's document updater goroutine.
func (s *Server) updateLoop(f *folder) {
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-f.wake:
		}
		for f.ctx.Err() == nil {
			rel, gen, ctx, ok := f.nextDirty()
			if !ok {
				break
			}
			s.writeDoc(ctx, f, rel, gen)
		}
	}
}

// writeDoc extracts the current buffer of rel into the store.
func (s *Server) writeDoc(ctx context.Context, f *folder, rel string, gen uint64) {
	abs := filepath.Join(f.root, filepath.FromSlash(rel))
	ov, open := s.overlays.Get(abs)
	var err error
	if open {
		err = f.store.PutContent(ctx, rel, ov.Content, s.opts.Index)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.inflight[rel]; ok {
		c()
		delete(f.inflight, rel)
	}
	if errors.Is(err, context.Canceled) {
		return // a newer generation is wanted; it will be written next
	}
	if err != nil {
		s.log.Errorf("index buffer %s: %v", abs, err)
		f.lastErr = err.Error()
	}
	// Even a failed write settles the generation: waiting requests answer
	// from the previous records rather than hang.
	if _, still := f.want[rel]; still && f.stored[rel] < gen {
		f.stored[rel] = gen
		if err == nil && f.want[rel] == gen {
			s.stats.record("$/indexUpdate", time.Since(f.wantAt[rel]))
		}
	}
	f.broadcastLocked()
}

// awaitDoc waits until the store reflects rel's buffer as it was when the
// call started. It returns early, without error, when the document is
// not open or the wait is cut short by ctx (the caller then answers from
// what is stored, or reports ctx's error itself).
func (f *folder) awaitDoc(ctx context.Context, rel string) {
	f.mu.Lock()
	want, ok := f.want[rel]
	f.mu.Unlock()
	if !ok {
		return
	}
	for {
		f.mu.Lock()
		stored, open := f.stored[rel]
		_, still := f.want[rel]
		ch := f.changed
		f.mu.Unlock()
		if !still || open && stored >= want {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-ch:
		}
	}
}

// awaitAll waits for every open document of the folder (workspace-wide
// queries).
func (f *folder) awaitAll(ctx context.Context) {
	f.mu.Lock()
	rels := make([]string, 0, len(f.want))
	for r := range f.want {
		rels = append(rels, r)
	}
	f.mu.Unlock()
	for _, r := range rels {
		f.awaitDoc(ctx, r)
	}
}

// rescheduleOpen queues every open document of f for rewriting.
func (s *Server) rescheduleOpen(f *folder) {
	f.mu.Lock()
	rels := make([]string, 0, len(f.want))
	for r := range f.want {
		rels = append(rels, r)
	}
	f.mu.Unlock()
	for _, r := range rels {
		f.scheduleDoc(r)
	}
}
