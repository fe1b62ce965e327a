package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index"
)

// reindexDelay coalesces bursts of file events (a git checkout, a save of
// many files) into one incremental run.
const reindexDelay = 150 * time.Millisecond

// progressEvery throttles $/progress reports.
const progressEvery = 200 * time.Millisecond

var progressSeq atomic.Int64

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
}

// progress is one work-done progress item; a no-op when the client did
// not offer window.workDoneProgress or refused the token.
type progress struct {
	s       *Server
	token   protocol.ProgressToken
	message string
	last    time.Time
	cancel  context.CancelFunc
}

// beginProgress creates a cancellable progress token.
func (s *Server) beginProgress(ctx context.Context, title string, cancel context.CancelFunc) *progress {
	p := &progress{s: s}
	if !s.caps.workDoneProgress {
		return p
	}
	token := protocol.String(fmt.Sprintf("parley/index/%d", progressSeq.Add(1)))
	cctx, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	if err := s.client.WorkDoneProgressCreate(cctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
		s.log.Debugf("window/workDoneProgress/create: %v", err)
		return p
	}
	p.token, p.cancel = token, cancel
	s.progressCancels.Store(string(token), cancel)
	p.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: title, Cancellable: ptr(true), Percentage: ptr(uint32(0))})
	return p
}

func (p *progress) report(pr index.Progress) {
	if p.token == nil || time.Since(p.last) < progressEvery {
		return
	}
	p.last = time.Now()
	pct := uint32(0)
	if pr.TotalBytes > 0 {
		pct = uint32(min(100, pr.DoneBytes*100/pr.TotalBytes))
	}
	msg := fmt.Sprintf("%d/%d files", pr.Done, pr.Total)
	p.send(&protocol.WorkDoneProgressReport{Kind: "report", Message: &msg, Percentage: &pct})
}

func (p *progress) done() {
	if p.token == nil {
		return
	}
	p.s.progressCancels.Delete(string(p.token.(protocol.String)))
	p.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: &p.message})
}

func (p *progress) send(v any) {
	raw, err := protocol.Marshal(v)
	if err != nil {
		p.s.log.Errorf("progress: %v", err)
		return
	}
	_ = p.s.client.Progress(context.Background(), &protocol.ProgressParams{Token: p.token, Value: raw})
}

// WorkDoneProgressCancel cancels the indexing run behind a token.
func (s *Server) WorkDoneProgressCancel(ctx context.Context, p *protocol.WorkDoneProgressCancelParams) error {
	var key string
	switch t := p.Token.(type) {
	case protocol.String:
		key = string(t)
	case protocol.Integer:
		key = fmt.Sprint(int32(t))
	}
	if c, ok := s.progressCancels.Load(key); ok {
		c.(context.CancelFunc)()
	}
	return nil
}
