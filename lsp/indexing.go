package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/index"
)

// reindexDelay coalesces bursts of file events (a git checkout, a save of
// many files) into one incremental run.
const reindexDelay = 150 * time.Millisecond

// indexLoop runs an incremental index run at start (which resumes from
// the persistent store) and whenever requestReindex is called.
func (s *Server) indexLoop(f *folder) {
	ctx := f.ctx
	// Load the resident symbol-name table now rather than on the first
	// workspace/symbol request.
	if _, err := f.store.SearchNames("", 1); err != nil {
		s.log.Warnf("load symbol names of %s: %v", f.root, err)
	}
	f.requestReindex()
	first := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.reindex:
		}
		if !first {
			select {
			case <-ctx.Done():
				return
			case <-time.After(reindexDelay):
			}
		}
		first = false
		s.indexOnce(ctx, f)
	}
}

// indexOnce runs one incremental run with work-done progress, then hands
// every open document back to the updater: the run skipped documents
// open when it started, but one opened during the run may have been
// overwritten with its disk content.
func (s *Server) indexOnce(ctx context.Context, f *folder) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := s.beginProgress(ctx, "Indexing "+filepath.Base(f.root), cancel)
	defer p.done()

	opts := s.opts.Index
	opts.Skip = func(rel string) bool {
		_, open := s.overlays.Get(filepath.Join(f.root, filepath.FromSlash(rel)))
		return open
	}
	if opts.MaxFiles > 0 {
		opts.OverLimit = func(limit int) { s.warnOverLimit(f, limit) }
	}
	opts.Progress = func(pr index.Progress) {
		if hook := s.testHookIndexProgress; hook != nil {
			hook(runCtx)
		}
		f.mu.Lock()
		f.progress = pr
		f.mu.Unlock()
		p.report(pr)
	}
	f.mu.Lock()
	f.indexing = true
	f.progress = index.Progress{}
	f.mu.Unlock()
	start := time.Now()
	sum, err := f.store.Index(runCtx, f.root, opts)
	f.mu.Lock()
	f.indexing = false
	f.mu.Unlock()
	switch {
	case errors.Is(err, context.Canceled):
		p.message = "cancelled; the next run resumes where this one stopped"
		s.log.Infof("indexing %s cancelled", f.root)
	case err != nil:
		f.setErr(err)
		p.message = "failed: " + err.Error()
		s.log.Errorf("indexing %s: %v", f.root, err)
	default:
		f.setErr(nil)
		f.mu.Lock()
		f.runs++
		f.lastRun = time.Now()
		f.mu.Unlock()
		p.message = fmt.Sprintf("%d files, %d changed, %d removed in %.2fs", sum.Files, sum.Changed, sum.Removed, time.Since(start).Seconds())
		s.log.Infof("indexed %s: %s", f.root, p.message)
	}
	s.files.clear()
	s.rescheduleOpen(f)
	// The @-mention picker's file list is rebuilt here rather than at the
	// first keystroke after a run (lsp/mentions.go).
	mentions.WarmFiles(f.store)
}

// warnOverLimit tells the user, once per folder and session, that the
// folder has more files than the limit. The editor named the folder, so
// the server indexes it anyway; but a folder that big is usually a home
// directory opened by mistake, and indexing it silently would cost
// minutes and gigabytes before anyone noticed.
func (s *Server) warnOverLimit(f *folder, limit int) {
	f.overLimit.Do(func() {
		msg := fmt.Sprintf("parley: %s has more than %d files; indexing it anyway, which may take a long time and much disk. "+
			"If it is not one project, open a project directory instead (the limit is parley serve --max-files, or initializationOptions index.maxFiles)", f.root, limit)
		s.log.Warnf("%s", msg)
		// A notification never waits for the editor; a failure means the
		// connection is going away.
		_ = s.client.ShowMessage(context.Background(), &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
	})
}
