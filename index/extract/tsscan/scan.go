// Package tsscan extracts a TypeScript or JavaScript file's index records
// without tree-sitter: a lexer driven by a recursive-descent parser that
// builds no tree and writes, as it goes, the symbols, references (with
// call flags), imports and TODO markers that index/extract's generic
// walker writes from the masked tree-sitter tree (lang_javascript.go,
// lang_typescript_mask.go), and keeps what index/typescript's describer
// reads of that tree (scopes, bindings, the expressions and types values
// are read from, classes, signatures, exports: tree.go), from which it
// writes the same resolution descriptors (describe.go).
//
// Contract: ScanTypeScript's and ScanJavaScript's records equal, record
// for record, what extract.For("typescript") and extract.For("javascript")
// produce for the same source, descriptors included when describe is set
// (index/typescript's DescribeTypeScript and DescribeJavaScript: the
// table, Result.Operands, in the same order, and each Ref.Operand), or
// they return an error and the caller must use the tree-sitter path.
// They decline syntax errors, JSX, and syntax whose tree-sitter records
// they do not replicate. They are pure functions of their input, safe
// for concurrent use, and never panic. index/indexer.go imports the
// package, whose init registers both scanners; TSX is not registered.
package tsscan

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"github.com/parleyhq/parley/index/extract"
)

// errFallback declines a file; it travels as a panic inside the parser
// and becomes Scan's error.
type errFallback struct{ msg string }

func (e *errFallback) Error() string { return "tsscan: " + e.msg }

func fail(msg string) { panic(&errFallback{msg}) }

// IsFallback reports whether err is the scanner declining a file.
func IsFallback(err error) bool {
	var e *errFallback
	return errors.As(err, &e)
}

func init() {
	extract.RegisterScanner("typescript", ScanTypeScript)
	extract.RegisterScanner("javascript", ScanJavaScript)
}

// ScanTypeScript extracts a TypeScript file's records; with describe,
// its resolution descriptors too.
func ScanTypeScript(src []byte, describe bool) (*extract.Result, error) {
	return scan(src, true, describe)
}

// ScanJavaScript extracts a JavaScript file's records.
func ScanJavaScript(src []byte, describe bool) (*extract.Result, error) {
	return scan(src, false, describe)
}

func scan(src []byte, ts, describe bool) (res *extract.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*errFallback); ok {
				res, err = nil, e
				return
			}
			res, err = nil, &errFallback{fmt.Sprint("scanner panic: ", r)}
		}
	}()
	if bytes.IndexByte(src, 0) >= 0 {
		return nil, &errFallback{"NUL byte"}
	}
	if loneCR(src) {
		// A line break to JavaScript, not to the walker's line count.
		return nil, &errFallback{"carriage return without a line feed"}
	}
	p := &parser{ts: ts, src: src}
	p.l.src = src
	if ts {
		p.l.src = extract.TSMask(src)
	}
	p.res = &extract.Result{Refs: make([]extract.Ref, 0, len(src)/16+8)}
	p.lines = extract.LineStarts(src, nil)
	p.names = extract.Names{}
	p.r = newRec(len(src))
	p.cls, p.thisFn, p.thisTo, p.r.nextCont = -1, -1, -1, 1
	if bytes.HasPrefix(src, []byte("#!")) {
		// hash_bang_line: neither a comment nor code.
		p.l.pos = bytes.IndexByte(src, '\n')
		if p.l.pos < 0 {
			p.l.pos = len(src)
		}
	}
	p.program()
	p.eofComments()
	p.flushComments(len(src) + 1)
	p.finish()
	if describe {
		p.describe()
	}
	return p.res, nil
}

// parser is the scanner's state: the token stream, the open definition
// scopes, and the records written so far.
type parser struct {
	ts    bool
	src   []byte
	l     lexer
	tok   token // the current token
	prev  int   // end of the token before tok
	res   *extract.Result
	lines []uint32
	names extract.Names
	// scopes are the open definitions, innermost last (the walker's
	// walkScope).
	scopes []scope
	// calls are the calls read so far, in the order they end.
	calls []callRec
	// ncomment is how many of l.comments have been handled.
	ncomment int
	doc      docBlock
	exports  []string
	depth    int // recursion depth
	// bareName: the declaration just read ends in a declarator without
	// a value.
	bareName bool
	noIn     int // > 0 in a for statement's head: "in" is not an operator

	// The records the descriptors are computed from (tree.go).
	r      *rec
	sc     int32 // the current scope
	cls    int32 // tsEnclosingClass: the class this and super see, -1 none
	thisFn int32 // tsThisFunction: the plain function this is, -1 none
	// thisTo collects this.x = … assignments: a function (fn id) or, with
	// thisCls, a class (obj id); -1 none.
	thisTo  int32
	thisCls bool
	cont    int32    // the statement or member list signatures are in
	expDecl *[]int32 // an exported declaration's binding names, nil else
	expTop  bool     // the next declaration is an export statement's
	expCur  *exportRec
	alias   []string // the exported names of an export clause's specifiers
	// A non-null ! in a binary operator's right operand (binary).
	holeOK          bool
	hole, holeInner int32
}

type scopeKind uint8

const (
	scopeNone scopeKind = iota
	scopeType
	scopeFunc
	scopeNS
)

type scope struct {
	sym      int32
	qual     string
	kind     scopeKind
	branches int
}

// docBlock is the run of whole-line comments just seen (the walker's).
type docBlock struct {
	valid      bool
	start, end int
	endLine    uint32
}

func (p *parser) pos(off int) extract.Pos {
	ls := p.lines
	i := sort.Search(len(ls), func(i int) bool { return ls[i] > uint32(off) }) - 1
	return extract.Pos{Line: uint32(i), Col: uint32(off) - ls[i]}
}

func (p *parser) line(off int) uint32 { return p.pos(off).Line }

func (p *parser) rng(s, e int) extract.Range { return extract.Range{Start: p.pos(s), End: p.pos(e)} }

func (p *parser) intern(b []byte) string { return p.names.Intern(b) }

// maxRefName is the walker's bound on a reference's length.
const maxRefName = 128

// ref records the name token t as a reference, an identifier looked up
// in the current scope unless the caller says otherwise (refAs); it
// returns its index, -1 for none.
func (p *parser) ref(t token) int {
	if t.end-t.start > maxRefName || t.end <= t.start || !nameStart(p.src[t.start]) {
		return -1
	}
	p.res.Refs = append(p.res.Refs, extract.Ref{Name: p.intern(p.src[t.start:t.end]), Pos: p.pos(t.start)})
	c := refCtx{kind: rLookup, scope: p.sc}
	if t.kind == tPrivate {
		c.kind = rNone
	}
	p.r.refs = append(p.r.refs, c)
	return len(p.res.Refs) - 1
}

// refAs records t as a reference described as c.
func (p *parser) refAs(t token, c refCtx) {
	if i := p.ref(t); i >= 0 && p.r.refs[i].kind != rNone {
		p.r.refs[i] = c
	}
}

// callRec is one call (call_expression, new_expression): its span and
// where its callee's name starts.
type callRec struct{ start, end, callee uint32 }

// called records a call spanning start to the token just read whose
// callee name starts at callee.
func (p *parser) called(start, callee int) {
	p.calls = append(p.calls, callRec{uint32(start), uint32(p.prev), uint32(callee)})
}

// branch counts a decision point towards the innermost function.
func (p *parser) branch() {
	if k := len(p.scopes); k > 0 && p.scopes[k-1].kind == scopeFunc {
		p.scopes[k-1].branches++
	}
}

// flushComments handles the comments that start before off, as the walker
// visits them before a node starting at off.
func (p *parser) flushComments(off int) {
	for p.ncomment < len(p.l.comments) && p.l.comments[p.ncomment].start < off {
		c := p.l.comments[p.ncomment]
		p.ncomment++
		p.comment(c)
	}
}

func (p *parser) comment(c comment) {
	raw := p.src[c.start:c.end]
	start := p.line(c.start)
	if bytes.Contains(raw, []byte("TODO")) || bytes.Contains(raw, []byte("FIXME")) ||
		bytes.Contains(raw, []byte("HACK")) || bytes.Contains(raw, []byte("XXX")) {
		p.res.Todos = extract.ScanTodos(string(raw), start, p.res.Todos)
	}
	if !extract.StartsLine(p.src, c.start) {
		p.doc.valid = false
		return
	}
	end := p.line(c.end)
	if p.doc.valid && start <= p.doc.endLine+1 {
		p.doc.end, p.doc.endLine = c.end, end
		return
	}
	p.doc = docBlock{valid: true, start: c.start, end: c.end, endLine: end}
}

// finish marks calls and the names a separate export statement exports.
// Calls are replayed as the walker meets them, in pre-order (by start,
// outer first), pushing their callee starts on the stack that
// extract.PopCallee pops at each reference.
func (p *parser) finish() {
	if len(p.calls) > 0 {
		calls := p.calls
		sort.Slice(calls, func(i, j int) bool {
			if calls[i].start != calls[j].start {
				return calls[i].start < calls[j].start
			}
			return calls[i].end > calls[j].end
		})
		var stack []uint32
		k := 0
		for i := range p.res.Refs {
			r := &p.res.Refs[i]
			off := p.lines[r.Pos.Line] + r.Pos.Col
			for k < len(calls) && calls[k].start <= off {
				stack = append(stack, calls[k].callee)
				k++
			}
			stack, r.Call = extract.PopCallee(stack, off)
		}
	}
	if len(p.exports) == 0 {
		return
	}
	names := make(map[string]bool, len(p.exports))
	for _, n := range p.exports {
		names[n] = true
	}
	for i := range p.res.Symbols {
		if s := &p.res.Symbols[i]; s.Parent < 0 && names[s.Name] {
			s.Exported = true
		}
	}
}

// nameStart is the walker's: names of references start so.
func nameStart(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == '$' || b == '@' || b == '#' || b >= 0x80
}

func loneCR(src []byte) bool {
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// eofComments extends the nodes that end with the last token over the
// comments after it when no line break follows that token: tree-sitter
// ends them at the end of the file then.
func (p *parser) eofComments() {
	last := p.prev
	n := len(p.l.comments)
	if n == 0 || p.l.comments[n-1].start < last || bytes.IndexByte(p.src[last:], '\n') >= 0 {
		return
	}
	end, at := p.pos(p.l.comments[n-1].end), p.pos(last)
	for i := range p.res.Symbols {
		if r := &p.res.Symbols[i].Range; r.End == at {
			r.End = end
		}
	}
}
