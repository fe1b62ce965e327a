package lsp

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index"
)

// progressEvery throttles $/progress reports.
const progressEvery = 200 * time.Millisecond

var progressSeq atomic.Int64

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
	return s.beginProgressKind(ctx, "index", title, cancel)
}

// beginProgressKind is beginProgress with the token's kind ("index",
// "chat") named, for logs and clients that tell them apart.
func (s *Server) beginProgressKind(ctx context.Context, kind, title string, cancel context.CancelFunc) *progress {
	p := &progress{s: s}
	if !s.caps.workDoneProgress {
		return p
	}
	token := protocol.String(fmt.Sprintf("parley/%s/%d", kind, progressSeq.Add(1)))
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

// say reports a free-form message (throttled like report).
func (p *progress) say(msg string) {
	if p.token == nil || time.Since(p.last) < progressEvery {
		return
	}
	p.last = time.Now()
	p.send(&protocol.WorkDoneProgressReport{Kind: "report", Message: &msg})
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
