package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/workspace"
)

// outcome is one site's measurements.
type outcome struct {
	Site site `json:"site"`
	// Parley, BM25 and PrefixSuffix say whether each found the
	// declaration (see hit).
	Parley       bool `json:"parley"`
	BM25         bool `json:"bm25"`
	PrefixSuffix bool `json:"prefix_suffix"`
	// ContextTokens is what Build spent of the budget; BM25Tokens the
	// baseline.
	ContextTokens int `json:"context_tokens"`
	BM25Tokens    int `json:"bm25_tokens"`
	// Put is the PutContent of the edited buffer; Cold the Build after
	// it (after complete.Warm on the file's content unless -open=false),
	// Warm a second Build at the same site (milliseconds).
	PutMS  float64 `json:"put_ms"`
	ColdMS float64 `json:"cold_ms"`
	WarmMS float64 `json:"warm_ms"`
	// ColdCPUMS and WarmCPUMS are the CPU time of the same Builds on
	// their thread, which other processes on the machine do not inflate.
	ColdCPUMS float64 `json:"cold_cpu_ms"`
	WarmCPUMS float64 `json:"warm_cpu_ms"`
	// BM25Windows are the baseline's windows, path:first-last.
	BM25Windows []string `json:"bm25_windows"`
	// Miss classifies a parley miss (miss.go).
	Miss *miss `json:"miss,omitempty"`
}

// bench is what every site of a corpus shares.
type bench struct {
	c      corpus
	st     *index.Store
	win    *windowIndex
	budget complete.Budget
	open   bool // -open
}

// edited is the buffer at a site: the cursor right after `x.`, the rest
// of the line removed.
func edited(src []byte, off int) []byte {
	end := len(src)
	if i := strings.IndexByte(string(src[off:]), '\n'); i >= 0 {
		end = off + i
	}
	return slices.Concat(src[:off], src[end:])
}

// measure runs one site as the language server would: the edited buffer
// written to the store (as lsp/update.go does at every keystroke), then
// Build, timed, twice; then the baseline on the same prefix; then the
// original content written back.
func (b *bench) measure(ctx context.Context, s site) (outcome, error) {
	orig, err := b.c.read(s.File)
	if err != nil {
		return outcome{}, err
	}
	buf := edited(orig, s.Off)
	out := outcome{Site: s}
	if b.open {
		complete.Warm(b.st, s.File, orig, b.budget.Count) // the editor opened the file
	}
	t := time.Now()
	if err := b.st.PutContent(ctx, s.File, buf, index.Options{}); err != nil {
		return out, fmt.Errorf("put %s: %w", s.File, err)
	}
	out.PutMS = ms(time.Since(t))
	src := b.source(s.File, buf, s.Off)
	defer func() {
		// Whatever happens, the store gets the file's content back.
		if err := b.st.PutContent(ctx, s.File, orig, index.Options{}); err != nil {
			warn("restore %s: %v", s.File, err)
		}
	}()
	var p complete.Prepared
	var panicked string
	out.ColdMS, out.ColdCPUMS = timed(func() { p, panicked = safeBuild(src, b.budget) })
	if panicked != "" {
		out.Miss = &miss{missPanic, panicked}
		return out, nil
	}
	out.WarmMS, out.WarmCPUMS = timed(func() { complete.Build(src, b.budget) })
	out.ContextTokens = p.ContextTokens
	out.Parley = anyHit(p.Request.Context, s.Decl)
	out.PrefixSuffix = textHas(p.Request.Prefix+"\n"+p.Request.Suffix, s.Decl)
	bm := b.win.retrieve(lastLines(p.Request.Prefix, queryLines), s.File, b.budget.Context, b.budget.Count)
	out.BM25 = anyHit(bm, s.Decl)
	for _, sn := range bm {
		out.BM25Tokens += b.budget.Count(sn.Text + "\n")
		out.BM25Windows = append(out.BM25Windows, fmt.Sprintf("%s:%d-%d", sn.Path, sn.StartLine, sn.EndLine))
	}
	if !out.Parley {
		m := b.classify(s, src, p)
		out.Miss = &m
	}
	return out, nil
}

// safeBuild is Build, with a panic caught and described (the first
// frames of its stack inside parley).
func safeBuild(src complete.Source, b complete.Budget) (p complete.Prepared, panicked string) {
	defer func() {
		if r := recover(); r != nil {
			var frames []string
			for _, l := range strings.Split(string(debug.Stack()), "\n") {
				if strings.Contains(l, "github.com/parleyhq/parley/") && !strings.Contains(l, "scripts/completionbench") && len(frames) < 2 {
					frames = append(frames, strings.TrimSpace(l))
				}
			}
			panicked = fmt.Sprintf("%v at %s", r, strings.Join(frames, " < "))
		}
	}()
	return complete.Build(src, b), ""
}

// source is the completion source at off of buf, the buffer of rel; other
// files are read from disk, as `parley complete` reads them.
func (b *bench) source(rel string, buf []byte, off int) complete.Source {
	return complete.Source{
		Store: b.st, Path: rel, Language: workspace.DetectLanguage(rel, buf[:min(len(buf), 512)]),
		Text: buf, Offset: off,
		Read: func(p string) ([]byte, error) {
			if p == rel {
				return buf, nil
			}
			return b.c.read(p)
		},
	}
}

// warmUp builds requests in a few files of the dev half, untimed, so that
// what a running server has loaded once (the tokenizer, the store's
// directory lists) is loaded before the first timed site.
func (b *bench) warmUp(files []string) {
	// The language server loads the resident name table at start
	// (lsp/indexing.go); NameEntries answers from it once loaded.
	if _, err := b.st.SearchNames("", 1); err != nil {
		warn("load the name table: %v", err)
	}
	n := 0
	for _, f := range files {
		if n == 10 || !b.c.siteFile(f) || half(f) != "dev" {
			continue
		}
		src, err := b.c.read(f)
		if err != nil || len(src) == 0 {
			continue
		}
		complete.Build(b.source(f, src, len(src)/2), b.budget)
		n++
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// timed runs f on one OS thread and returns its wall and CPU time in
// milliseconds (CPU 0 where the platform cannot tell).
func timed(f func()) (wall, cpu float64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, _ := threadCPU()
	t := time.Now()
	f()
	wall = ms(time.Since(t))
	c1, _ := threadCPU()
	return wall, ms(c1 - c0)
}

func lastLines(s string, n int) string {
	i := len(s)
	for k := 0; k < n && i > 0; k++ {
		i = strings.LastIndexByte(s[:i], '\n')
		if i < 0 {
			return s
		}
	}
	return s[i+1:]
}

// The ground truth is found when a snippet of the declaration's file has
// a line that is the declaration's line (as the file has it, or as the
// index stores its signature), or starts with that line's text up to
// the declared name (`func (b *Buffer) Write`, `def write`, `subscribe`:
// an overload's other signature counts). Both retrievers are judged by
// this one rule.

func anyHit(snips []fim.Snippet, d decl) bool {
	for _, sn := range snips {
		if sn.Path == d.Path && textHas(sn.Text, d) {
			return true
		}
	}
	return false
}

// textHas reports whether some line of text declares d (the rule above,
// the path aside).
func textHas(text string, d decl) bool {
	src := strings.TrimSpace(d.Source)
	sig := strings.TrimSpace(firstLine(d.Signature))
	head := declHead(d)
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if t == src || t == sig {
			return true
		}
		if head != "" && strings.HasPrefix(t, head) && (len(t) == len(head) || !isIdentByte(t[len(head)])) {
			return true
		}
	}
	return false
}

// declHead is the declaration's line from its first non-blank character
// to the end of the declared name.
func declHead(d decl) string {
	end := d.Col + len(d.Name)
	if d.Col < 0 || end > len(d.Source) || d.Source[d.Col:end] != d.Name {
		return ""
	}
	return strings.TrimSpace(d.Source[:end])
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// warn prints a non-fatal problem.
func warn(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "completionbench: "+format+"\n", args...)
}
