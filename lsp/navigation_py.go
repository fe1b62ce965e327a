package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

// Python, TypeScript and JavaScript navigation resolves from syntax
// (index/python, index/typescript): the declaration the identifier
// means, then the references to it.
//
// Both answer from the resolution descriptors the index stores with each
// occurrence, parsing nothing when the buffer is the content the index
// holds (open buffers are written to it as they change) and only the
// buffer otherwise (and for a TypeScript call of an overloaded function
// the file declaring it):
// definition and references take a few milliseconds, well within the
// budget below. A request waits for the resolution at most the server's
// ResolveBudget; past it, or while another resolution of the folder still
// runs, it answers from the index's name ranking, and the late resolution
// finishes in the background, leaving its parses cached for the next
// request; opening a document warms the cache ahead of the requests
// (warm.go).
//
// Python references the syntax cannot confirm (x.name with x of unknown
// type) are left out of the server's answers (pyCertain); the CLI and the
// agent's find_references list them marked uncertain.

// DefaultResolveBudget is Options.ResolveBudget's default.
const DefaultResolveBudget = 50 * time.Millisecond

// withinBudget runs fn, one per folder at a time, and waits for it at most
// the resolve budget or until ctx ends; ok is false when it did not answer
// in time (fn's late result is dropped). A late resolution still running
// is cancelled (nav.CancelResolutions, resumed when it ends) and
// awaited within the budget: it only warmed the cache, and a resolution of
// an edited TypeScript buffer can parse for seconds, which would send
// every request behind it to the ranking.
func withinBudget[T any](ctx context.Context, s *Server, f *folder, fn func() (T, bool, error)) (v T, ok bool, err error) {
	budget := s.opts.ResolveBudget
	if budget == 0 {
		budget = DefaultResolveBudget
	}
	deadline := time.Now().Add(budget)
	if !f.slot.take() && !awaitLate(ctx, f, budget, deadline) {
		return v, false, nil
	}
	type result struct {
		v   T
		ok  bool
		err error
	}
	done := make(chan result, 1)
	// The folder's store must outlive a late resolution: removing the
	// folder and teardown wait for it.
	f.wg.Add(1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer f.wg.Done()
		var r result
		gen := nav.ResolveGen(f.store)
		func() {
			// Free before answering: the caller's next request must not
			// find this resolution still running.
			defer f.slot.release()
			defer nav.ResumeResolutions(f.store)
			// A resolver bug on some file must not take the server down:
			// the request answers from the ranking instead.
			defer func() {
				if p := recover(); p != nil {
					s.log.Errorf("resolution panicked: %v\n%s", p, debug.Stack())
					r = result{}
				}
			}()
			if hook := s.testHookResolve; hook != nil {
				hook()
			}
			r.v, r.ok, r.err = fn()
			if nav.CancelledSince(f.store, gen) {
				r = result{} // stopped part way: incomplete
			}
		}()
		done <- r
	}()
	var expired <-chan time.Time
	if budget > 0 {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	select {
	case r := <-done:
		return r.v, r.ok, r.err
	case <-expired:
	case <-ctx.Done():
	}
	f.slot.markLate()
	return v, false, nil
}

// awaitLate cancels the folder's resolution if it runs late and waits,
// until the deadline, to take its place; ok is false when the folder is
// still busy (with a resolution within its own budget, or one that does
// not stop).
func awaitLate(ctx context.Context, f *folder, budget time.Duration, deadline time.Time) bool {
	if budget < 0 || !f.slot.late() {
		return false
	}
	nav.CancelResolutions(f.store)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		if f.slot.take() {
			// The late resolution may have resumed the store before
			// the cancel above: resume it again, or this one would be
			// cancelled from its start.
			nav.ResumeResolutions(f.store)
			return true
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return false
		}
	}
	return false
}

// navOptions runs d's resolutions from syntax (nav.Options) within the
// resolve budget, reading d's folder as the server sees it.
func (s *Server) navOptions(ctx context.Context, d *doc) nav.Options {
	return nav.Options{
		Read: s.pyReader(d),
		Budget: func(fn func() (any, bool, error)) (any, bool, error) {
			return withinBudget(ctx, s, d.f, fn)
		},
	}
}

// pyReader reads other files of d's folder as the server sees them (open
// buffers first).
func (s *Server) pyReader(d *doc) func(rel string) ([]byte, error) {
	return func(rel string) ([]byte, error) {
		t, err := s.text(filepath.Join(d.f.root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		return t.content, nil
	}
}

// pyTarget resolves the Python, TypeScript or JavaScript identifier at
// byte offset off of d; ok is false in other files and when the syntax
// does not settle it.
func (s *Server) pyTarget(d *doc, off int) (nav.Target, bool) {
	return nav.SyntaxTargetAt(d.f.store, d.rel, d.content, off, s.pyReader(d))
}

// pyHighlights is nav.SyntaxFileReferences of the identifier at pos
// (pyTarget) within d, within the budget.
func (s *Server) pyHighlights(ctx context.Context, d *doc, pos protocol.Position) (occ []index.RefHit, ok bool, err error) {
	off, err := s.offset(d, pos)
	if err != nil {
		return nil, false, err
	}
	return withinBudget(ctx, s, d.f, func() ([]index.RefHit, bool, error) {
		t, ok := s.pyTarget(d, off)
		if !ok {
			return nil, false, nil
		}
		occ, err := nav.SyntaxFileReferences(d.f.store, t, d.rel, s.pyReader(d))
		if err != nil && !errors.Is(err, index.ErrNotIndexed) {
			return nil, false, err
		}
		return pyCertain(t, occ), true, nil
	})
}

// pyCertain keeps, of the references to the Python declaration t, those
// the syntax confirms: x.name with x of unknown type is left out, as
// pyright leaves out what it cannot type and as the server leaves out Go's
// ambiguous ones (goReferences), since LSP cannot mark a location
// uncertain and an editor's rename applies every location it gets. The
// CLI and the agent's find_references keep them, marked uncertain.
func pyCertain(t nav.Target, hits []index.RefHit) []index.RefHit {
	if !strings.HasSuffix(t.Path, ".py") && !strings.HasSuffix(t.Path, ".pyi") {
		return hits
	}
	out := hits[:0]
	for _, h := range hits {
		if !h.Uncertain {
			out = append(out, h)
		}
	}
	return out
}
