package extract

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	ts "github.com/odvcencio/gotreesitter"
	"github.com/odvcencio/gotreesitter/grammars"
)

// Every language except Go goes through this file: one generic walker
// interprets a per-language table (lang_*.go) in a single pre-order pass
// over the syntax tree. We walk instead of running tags queries because the
// queries cost more than the parse itself, and the parse is already the
// bottleneck (about 1 MB/s for Python).

// maxRefName drops identifiers that are surely not names anyone searches
// for (minified or generated code).
const maxRefName = 128

// tsExtractor extracts one language. The grammar loads on first use, not at
// init, so a process that never sees Kotlin never decodes its tables.
type tsExtractor struct {
	spec    *langSpec
	once    sync.Once
	c       *compiled
	err     error
	parsers parserPool
}

// parserPool hands out parsers of one grammar; a parser is not
// goroutine-safe. ts.NewParser derives a dozen tables from the grammar each
// time (bash ~15 ms, C++ ~30 ms), and a sync.Pool alone drops idle parsers
// at every collection: a cold index of GOROOT/src built 15 parsers for its
// 5 tree-sitter languages (6 for bash's handful of scripts). So idle
// parsers are kept across collections (their memory stays with the
// grammar's own tables, which are never freed either), one per worker up
// to len(keep), and the run builds 9; more go to the sync.Pool. One kept
// parser was not enough where one language fills every worker: a cold
// index of Boost's headers (C++, 2 workers) built a parser about every
// other collection, 0.64 s of its 13.2 s of CPU.
type parserPool struct {
	keep  [4]atomic.Pointer[ts.Parser]
	extra sync.Pool // *ts.Parser
}

// kept is how many of keep are used: one per worker (GOMAXPROCS).
func (pp *parserPool) kept() []atomic.Pointer[ts.Parser] {
	return pp.keep[:min(len(pp.keep), max(1, runtime.GOMAXPROCS(0)))]
}

func (pp *parserPool) get(lang *ts.Language) *ts.Parser {
	for i := range pp.kept() {
		if p := pp.keep[i].Swap(nil); p != nil {
			return p
		}
	}
	if p, ok := pp.extra.Get().(*ts.Parser); ok {
		return p
	}
	return ts.NewParser(lang)
}

func (pp *parserPool) put(p *ts.Parser) {
	for i := range pp.kept() {
		if pp.keep[i].CompareAndSwap(nil, p) {
			return
		}
	}
	pp.extra.Put(p)
}

func registerTS(spec *langSpec) { register(spec.name, &tsExtractor{spec: spec}) }

func (e *tsExtractor) load() (*compiled, error) {
	e.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				e.err = fmt.Errorf("load %s grammar: panic: %v", e.spec.grammar, r)
			}
		}()
		entry := grammars.DetectLanguageByName(e.spec.grammar)
		if entry == nil || entry.Language == nil {
			e.err = fmt.Errorf("load %s grammar: not in gotreesitter registry", e.spec.grammar)
			return
		}
		lang := entry.Language()
		e.c, e.err = compileSpec(e.spec, lang, entry.TokenSourceFactory)
		if e.err != nil {
			e.err = fmt.Errorf("load %s grammar: %w", e.spec.grammar, e.err)
		}
	})
	return e.c, e.err
}

// Extract parses src and walks the tree once. It never panics: a panic in
// the walker becomes an error here, one in the parse goroutine in parse.
// The parse and the walk each get the budget; the walk is linear and only
// runs out on giant trees.
func (e *tsExtractor) Extract(ctx context.Context, path string, src []byte, opts Options) (res *Result, err error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract %s: %w", path, err)
	}
	if e.spec.name == "c" && !opts.TreeSitter && LooksCpp(src) {
		if cpp := For("cpp"); cpp != nil {
			return cpp.Extract(ctx, path, src, opts) // lang_c_cpp.go
		}
	}
	res, reg, ok := scan(e.spec.name, src, opts)
	if ok {
		return res, nil
	}
	c, err := e.load()
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", path, err)
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("extract %s: %s extractor panicked: %v", path, e.spec.name, r)
		}
	}()
	budget := opts.budget()
	parsed, walked := src, src
	if reg != nil {
		masked := reg.Masked
		if masked == nil && e.spec.mask != nil {
			masked = e.spec.mask(src)
		} else if masked == nil {
			masked = src
		}
		walked, parsed = reg.compact(src, masked)
	}
	tree, stopped, err := e.parse(ctx, c, parsed, reg != nil, budget)
	if err := ctx.Err(); err != nil {
		if tree != nil {
			tree.Release()
		}
		return nil, fmt.Errorf("extract %s: %w", path, err)
	}
	if errors.Is(err, errAbandoned) {
		return &Result{Partial: fmt.Sprintf("parse budget exceeded after %s (parse abandoned)", budget)}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("extract %s: parse %s: %w", path, e.spec.name, err)
	}
	defer releaseTree(tree, len(parsed))
	res = &Result{}
	root := tree.RootNode()
	if root == nil {
		return res, nil
	}
	w := getWalker(ctx, c, walked, res, time.Now().Add(budget))
	w.walk(root)
	if w.err == nil && c.spec.finish != nil && reg == nil {
		c.spec.finish(w)
	}
	werr := w.err
	putWalker(w)
	if werr != nil {
		return nil, fmt.Errorf("extract %s: %w", path, werr)
	}
	if reg != nil {
		partial := res.Partial
		res = reg.merge(res, src)
		res.Partial = partial
		if c.spec.finish != nil {
			// Once, on the merged records (cppDropHoisted; a finish
			// reading walker state, as JavaScript's does, has no Regions).
			c.spec.finish(&tsWalker{src: src, res: res, c: c})
		}
		res.Partial = partialReason(tree, root, res, stopped, budget, softBudgetFor(len(src)))
		return res, nil
	}
	annotate(opts, e.spec.name, &Tree{Tree: tree, Lang: c.lang}, src, res)
	res.Partial = partialReason(tree, root, res, stopped, budget, softBudgetFor(len(src)))
	return res, nil
}

// partialReason explains an incomplete result. Trees with a few ERROR nodes
// are normal for real code and still yield good records, so errors alone
// count only when nothing at all came out. A tree kept at the reparse cut
// (stopSoft) covers the whole file, but the reparses might have found a
// better one, so it is reported too.
func partialReason(tree *ts.Tree, root *ts.Node, res *Result, stopped uint32, budget, soft time.Duration) string {
	if res.Partial != "" {
		return res.Partial
	}
	if stopped == stopSoft {
		return fmt.Sprintf("parse retries stopped after %s (first pass complete)", soft)
	}
	if tree.ParseStoppedEarly() {
		switch r := tree.ParseStopReason(); {
		case stopped == stopMemory:
			return fmt.Sprintf("parse stopped: the live heap grew by %d MiB", liveHeapGrowthLimit>>20)
		case stopped == stopBudget || r == ts.ParseStopTimeout:
			return fmt.Sprintf("parse budget exceeded after %s", budget)
		case r == ts.ParseStopCancelled:
			return "parse cancelled"
		default:
			return "parse stopped early: " + strings.ReplaceAll(string(r), "_", " ")
		}
	}
	if root.HasError() && len(res.Symbols) == 0 && len(res.Refs) == 0 && len(res.Imports) == 0 {
		return "syntax errors"
	}
	return ""
}

// walkFrame is one node on the explicit DFS stack; recursion would overflow on
// pathological nesting.
type walkFrame struct {
	node  *ts.Node
	next  int
	count int
	scope bool // the node opened a scope that closes with it
}

type tsWalker struct {
	ctx      context.Context
	c        *compiled
	src      []byte
	res      *Result
	stack    []walkFrame
	scopes   Scopes   // Scope.Access: C++ members are currently public
	calls    []uint32 // start bytes of pending callee names, innermost last
	names    Names
	vars     map[string]struct{}
	doc      ScanDoc
	deadline time.Time
	visited  int
	gotPkg   bool
	exports  []string // names exported by a separate statement (JS export { a })
	lines    []uint32 // byte offset of each line start
	err      error
}

var walkerPool = sync.Pool{New: func() any { return &tsWalker{names: map[string]string{}} }}

func getWalker(ctx context.Context, c *compiled, src []byte, res *Result, deadline time.Time) *tsWalker {
	w := walkerPool.Get().(*tsWalker)
	w.ctx, w.c, w.src, w.res, w.deadline = ctx, c, src, res, deadline
	w.lines = LineStarts(src, w.lines[:0])
	// A guess from measured identifier density keeps Refs from regrowing
	// several times on big files.
	res.Refs = make([]Ref, 0, len(src)/16+8)
	return w
}

func putWalker(w *tsWalker) {
	// Huge maps from one generated file should not stay pinned.
	if len(w.names) > 1<<14 {
		w.names = Names{}
	} else {
		clear(w.names)
	}
	w.vars, w.exports = nil, w.exports[:0]
	w.ctx, w.c, w.src, w.res, w.err = nil, nil, nil, nil, nil
	w.stack, w.scopes, w.calls = w.stack[:0], w.scopes[:0], w.calls[:0]
	w.doc, w.visited, w.gotPkg = ScanDoc{}, 0, false
	walkerPool.Put(w)
}

// walk visits every node once in document order.
func (w *tsWalker) walk(root *ts.Node) {
	w.stack = append(w.stack[:0], walkFrame{node: root, count: root.ChildCount()})
	for len(w.stack) > 0 {
		top := len(w.stack) - 1
		f := &w.stack[top]
		if f.next >= f.count {
			if f.scope {
				w.closeScope()
			}
			w.stack = w.stack[:top]
			continue
		}
		i := f.next
		f.next++
		parent := f.node
		child := parent.Child(i)
		if child == nil {
			continue
		}
		w.visited++
		if w.visited&4095 == 0 && !w.checkBudget() {
			return
		}
		descend, opened := w.visit(child, parent, i)
		if cnt := child.ChildCount(); descend && cnt > 0 {
			w.stack = append(w.stack, walkFrame{node: child, count: cnt, scope: opened})
		} else if opened {
			w.closeScope()
		}
	}
}

// checkBudget stops the walk on cancellation or when the whole file has
// used up its budget; the walk is linear, so this only trips on giant trees.
func (w *tsWalker) checkBudget() bool {
	if err := w.ctx.Err(); err != nil {
		w.err = err
		return false
	}
	if time.Now().After(w.deadline) {
		w.res.Partial = "extract budget exceeded"
		w.stack = w.stack[:0]
		return false
	}
	return true
}

// visit handles one node; it reports whether to descend and whether the
// node opened a scope.
func (w *tsWalker) visit(n, parent *ts.Node, idx int) (descend, opened bool) {
	si := w.c.kindOf(n)
	if si == nil {
		return true, false
	}
	if si.comment {
		w.comment(n)
		return false, false
	}
	if si.branch && w.decides(n, parent) {
		w.branch()
	}
	if si.docSkip && w.doc.Valid && n.StartPoint().Row <= w.doc.EndLine+1 {
		w.doc.EndLine = endLine(n)
	}
	if si.hook != nil {
		si.hook(w, n)
	}
	if si.isPkg && !w.gotPkg {
		w.pkg(n, si.pkgField)
	}
	if si.imp != nil {
		si.imp(w, n)
	}
	if si.isCall {
		w.call(n, si.calleeField)
	}
	if len(si.defs) > 0 {
		opened = w.define(n, parent, idx, si.defs)
	}
	if len(si.idents) > 0 && w.identMatches(si.idents, parent, idx) {
		w.ref(n)
	}
	return true, opened
}

func (w *tsWalker) identMatches(rules []*identC, parent *ts.Node, idx int) bool {
	for _, r := range rules {
		if len(r.parents) > 0 && (parent == nil || !r.parents.has(parent.Symbol())) {
			continue
		}
		if r.field != "" && parent.FieldNameForChild(idx, w.c.lang) != r.field {
			continue
		}
		return true
	}
	return false
}

// intern returns a shared string for b; map lookups keyed by string(b) do
// not allocate, so each distinct name is copied once per file.
func (w *tsWalker) intern(b []byte) string { return w.names.Intern(b) }

// PopCallee pops the pending callee starts (innermost last) up to s and
// reports whether s is one: an identifier starting where a call's callee
// starts is called. Pending callees are resolved in document order;
// entries before s belong to callees that were not identifiers and are
// dropped. The tree-sitter walker and Python's scanner share it.
func PopCallee(calls []uint32, s uint32) ([]uint32, bool) {
	for len(calls) > 0 {
		top := calls[len(calls)-1]
		if top > s {
			break
		}
		calls = calls[:len(calls)-1]
		if top == s {
			return calls, true
		}
	}
	return calls, false
}

func (w *tsWalker) ref(n *ts.Node) {
	if n.IsMissing() {
		return
	}
	s, e := n.StartByte(), n.EndByte()
	if e <= s || e-s > maxRefName || int(e) > len(w.src) || !nameStart(w.src[s]) {
		return
	}
	var call bool
	w.calls, call = PopCallee(w.calls, s)
	w.res.Refs = append(w.res.Refs, Ref{Name: w.intern(w.src[s:e]), Pos: w.pos(s, n.StartPoint().Row), Call: call})
}

// nameStart reports whether b can start a name worth a Ref. It drops
// shell words such as "." or "1" ($1) that grammars type as names.
func nameStart(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == '$' || b == '@' || b == '#' || b >= 0x80
}

// call records where the callee's name starts so its Ref gets Call=true.
func (w *tsWalker) call(n *ts.Node, calleeField string) {
	var callee *ts.Node
	if calleeField != "" && calleeField != "^" {
		callee = n.ChildByFieldName(calleeField, w.c.lang)
	} else {
		callee = n.NamedChild(0)
	}
	// Descend through member accesses and scoped names to the final name;
	// the bound keeps a malformed tree from looping.
	for depth := 0; callee != nil && depth < 8; depth++ {
		si := w.c.kindOf(callee)
		if si == nil || !si.isCallee {
			break
		}
		switch si.nextField {
		case "":
			callee = lastNamed(callee)
		case "^":
			callee = callee.NamedChild(0)
		default:
			callee = callee.ChildByFieldName(si.nextField, w.c.lang)
		}
	}
	if callee != nil {
		w.calls = append(w.calls, callee.StartByte())
	}
}

func lastNamed(n *ts.Node) *ts.Node {
	for i := n.ChildCount() - 1; i >= 0; i-- {
		if ch := n.Child(i); ch != nil && ch.IsNamed() {
			return ch
		}
	}
	return nil
}

// decides reports whether a branch node adds a path: not the default arm
// of a switch (default:, else ->), and an operator token only inside an
// expression.
func (w *tsWalker) decides(n, parent *ts.Node) bool {
	if !n.IsNamed() {
		return len(w.c.opParents) == 0 || parent != nil && w.c.opParents.has(parent.Symbol())
	}
	first := n.Child(0)
	return first == nil || !w.c.typeIs(first, "default|else|default_keyword|discard")
}

// branch counts a decision point towards the innermost function.
func (w *tsWalker) branch() {
	w.scopes.Branch(1)
}

// endLine is the last line a node covers; line comments that swallow their
// newline end at column 0 of the next line, which is not theirs.
func endLine(n *ts.Node) uint32 {
	s, e := n.StartPoint(), n.EndPoint()
	if e.Column == 0 && e.Row > s.Row {
		return e.Row - 1
	}
	return e.Row
}

func (w *tsWalker) comment(n *ts.Node) {
	s, e := n.StartByte(), n.EndByte()
	if e <= s || int(e) > len(w.src) {
		return
	}
	w.doc.Comment(w.src, s, e, n.StartPoint().Row, endLine(n), w.res)
}

// StartsLine reports whether only blanks precede offset on its line (a
// comment there may document what follows; the scanners share it).
func StartsLine(src []byte, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r', '\f':
		default:
			return false
		}
	}
	return true
}

func (w *tsWalker) pkg(n *ts.Node, field string) {
	var name *ts.Node
	if field != "" {
		name = n.ChildByFieldName(field, w.c.lang)
	} else {
		name = n.NamedChild(0)
	}
	if name != nil {
		w.res.Package = squash(textOf(w.src, name))
		w.gotPkg = w.res.Package != ""
	}
}

// addImport records an import path as written.
func (w *tsWalker) addImport(path string, n *ts.Node) {
	path = strings.TrimSpace(path)
	if path == "" || n == nil {
		return
	}
	w.res.Imports = append(w.res.Imports, Import{Path: path, Line: n.StartPoint().Row})
}

// ancestor returns the k-th ancestor of the node being visited (1 = its
// parent), or nil.
func (w *tsWalker) ancestor(k int) *ts.Node {
	if k <= 0 || k > len(w.stack) {
		return nil
	}
	return w.stack[len(w.stack)-k].node
}

// inFunc reports whether the walk is inside a function body.
func (w *tsWalker) inFunc() bool { return w.scopes.InFunc() }

// innerScope returns the innermost open scope, or nil at top level.
func (w *tsWalker) innerScope() *Scope { return w.scopes.Inner() }

func (w *tsWalker) closeScope() {
	if len(w.scopes) > 0 {
		w.scopes.Close(w.res.Symbols)
	}
}

// pos converts a byte offset to a position. Columns are computed from byte
// offsets rather than taken from tree-sitter points because the hand-written
// token sources (Java at least) count columns in runes, not bytes; the
// point's row is only a hint that makes the lookup O(1).
func (w *tsWalker) pos(off, row uint32) Pos {
	ls := w.lines
	if int(row) >= len(ls) || ls[row] > off || int(row)+1 < len(ls) && ls[row+1] <= off {
		lo, hi := 0, len(ls)
		for lo+1 < hi {
			mid := (lo + hi) / 2
			if ls[mid] <= off {
				lo = mid
			} else {
				hi = mid
			}
		}
		row = uint32(lo)
	}
	return Pos{Line: row, Col: off - ls[row]}
}

func (w *tsWalker) rangeOf(n *ts.Node) Range {
	return Range{Start: w.pos(n.StartByte(), n.StartPoint().Row), End: w.pos(n.EndByte(), n.EndPoint().Row)}
}
