package lspclient

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/tools"
)

// quiet is how long a settled file's diagnostics must stay unchanged at
// least: servers may publish a version in stages (gopls: type errors
// first, its analyzers' findings later; typescript-language-server:
// syntax, then the type checker). A server that took long to publish the
// first stage is given half that time again for the next, up to
// maxQuiet.
var (
	quiet    = 150 * time.Millisecond
	maxQuiet = time.Second
)

// quietAfter is the quiet period of a publication that came latency after
// the change.
func quietAfter(latency time.Duration) time.Duration {
	return min(max(latency/2, quiet), maxQuiet)
}

// sync tells the server the file's content: didOpen the first time,
// a whole-text didChange when it differs from what the server has.
func (s *server) sync(ctx context.Context, path, lang string, content []byte) error {
	s.mu.Lock()
	d, open := s.docs[path]
	text := string(content)
	if open && d.text == text {
		s.mu.Unlock()
		return nil
	}
	if !open {
		d = &document{}
		s.docs[path] = d
	}
	d.version++
	d.text, d.changeSeq, d.changedAt = text, s.seq, time.Now()
	version := d.version
	s.mu.Unlock()
	u := string(uri.File(path))
	if !open {
		return s.conn.Notify(ctx, "textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{
			URI: u, LanguageID: languageID(lang, path), Version: version, Text: text,
		}})
	}
	return s.conn.Notify(ctx, "textDocument/didChange", didChangeParams{
		TextDocument:   versionedDocument{URI: u, Version: version},
		ContentChanges: []contentChange{{Text: text}},
	})
}

// close tells the server the file is gone from the agent's view.
func (s *server) close(ctx context.Context, path string) error {
	s.mu.Lock()
	_, open := s.docs[path]
	delete(s.docs, path)
	delete(s.pubs, path)
	s.mu.Unlock()
	if !open {
		return nil
	}
	return s.conn.Notify(ctx, "textDocument/didClose", didCloseParams{TextDocument: documentIdentifier{URI: string(uri.File(path))}})
}

// current returns the publication that answers the document's current
// content, nil while there is none.
func (s *server) current(path string) *published {
	d, p := s.docs[path], s.pubs[path]
	if d == nil || p == nil || p.seq <= d.changeSeq {
		return nil
	}
	if p.version != nil && *p.version < d.version {
		return nil
	}
	return p
}

// wait returns the file's diagnostics once the server has published them
// for its current content and then kept quiet, or what it had when
// deadline passed (settled false). heard reports whether the server
// published anything at all meanwhile, to tell a slow server from a hung
// one.
func (s *server) wait(ctx context.Context, path string, deadline time.Time) (diags []tools.Diagnostic, settled, heard bool) {
	s.mu.Lock()
	startSeq := s.seq
	s.mu.Unlock()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		s.mu.Lock()
		p, changed := s.current(path), s.changed
		heard = s.seq != startSeq
		var last *published
		var changedAt time.Time
		if p == nil {
			last = s.pubs[path]
		} else {
			changedAt = s.docs[path].changedAt
		}
		s.mu.Unlock()
		var quietLeft time.Duration
		if p != nil {
			if quietLeft = quietAfter(p.at.Sub(changedAt)) - time.Since(p.at); quietLeft <= 0 {
				return convert(p.diags), true, true
			}
		}
		var quietC <-chan time.Time
		if quietLeft > 0 {
			quietC = time.After(quietLeft)
		}
		select {
		case <-changed:
		case <-quietC:
		case <-s.exited:
			return nil, false, heard
		case <-ctx.Done():
			return lastDiags(p, last), false, heard
		case <-timer.C:
			return lastDiags(p, last), p != nil, heard
		}
	}
}

// lastDiags is what was published by the time the wait gave up: the
// current content's if any, else the previous content's.
func lastDiags(p, last *published) []tools.Diagnostic {
	if p != nil {
		return convert(p.diags)
	}
	if last != nil {
		return convert(last.diags)
	}
	return nil
}

// convert turns LSP diagnostics into the tools' (1-based lines and
// columns).
func convert(ds []wireDiagnostic) []tools.Diagnostic {
	out := make([]tools.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, tools.Diagnostic{
			Line: int(d.Range.Start.Line) + 1, Column: int(d.Range.Start.Character) + 1,
			Severity: d.Severity, Source: d.Source, Code: d.code(), Message: d.Message,
		})
	}
	return out
}

// diagnose syncs files into s and waits for each, all bounded by one
// deadline.
func (s *server) diagnose(ctx context.Context, files []langFile, timeout time.Duration) ([]tools.FileDiagnostics, bool) {
	out := make([]tools.FileDiagnostics, 0, len(files))
	for _, f := range files {
		if err := s.sync(ctx, f.Path, f.lang, f.Content); err != nil {
			return failAll(files, fmt.Sprintf("%s: %v", s.name, err)), false
		}
	}
	deadline := time.Now().Add(timeout)
	anyHeard := false
	for _, f := range files {
		diags, settled, heard := s.wait(ctx, f.Path, deadline)
		anyHeard = anyHeard || heard
		fd := tools.FileDiagnostics{Path: f.Path, Diags: diags, Server: s.label(), Settled: settled}
		if !s.alive() {
			fd.Problem = fmt.Sprintf("%s exited: %s", s.name, s.exitReason())
		}
		out = append(out, fd)
	}
	allSettled := !slices.ContainsFunc(out, func(fd tools.FileDiagnostics) bool { return !fd.Settled })
	return out, allSettled || anyHeard
}

func failAll(files []langFile, problem string) []tools.FileDiagnostics {
	out := make([]tools.FileDiagnostics, len(files))
	for i, f := range files {
		out[i] = tools.FileDiagnostics{Path: f.Path, Problem: problem}
	}
	return out
}
