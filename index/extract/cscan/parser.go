package cscan

import (
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/clex"
	"github.com/parleyhq/parley/index/extract/internal/cregion"
)

// Contexts items are parsed in.
const (
	ctxTop   = iota // the file
	ctxField        // a struct or union body
	ctxEnum         // an enum body
)

type parser struct {
	src  []byte
	toks []tok
	i    int
	e    *emitter
	reg  cregion.Collector
	dry  bool // a look-ahead: nothing is recorded
	// declTop: the next declarator is a top-level declaration's or a
	// field's, where macros may follow a function declarator's
	// parameters.
	declTop bool
	// funcOfFunc: the last declarator was a function's returning a
	// function, f(a)(b).
	funcOfFunc bool
	// In a body: whether each open "(" is a call's, and whether the
	// last ")" closed one.
	callParens []bool
	closedCall bool
	// The token before each open "(" in a body, and before the last
	// closed one's.
	parenAfter  []tok
	closedAfter tok
}

func newParser(src []byte, toks []tok, comments []comment) *parser {
	lines := extract.LineStarts(src, make([]uint32, 0, len(src)/30+2))
	e := &emitter{src: src, lines: lines, res: &extract.Result{}, comments: comments,
		names: extract.Names{}, vars: map[varKey]bool{}}
	e.res.Refs = make([]extract.Ref, 0, len(src)/16+8)
	return &parser{src: src, toks: toks, e: e}
}

func (p *parser) peek() tok { return p.at(0) }

// at is the token k after p.i; a literal or directive the lexer marked
// Bad declines the item that reaches it (k == 0: a look-ahead sees a
// token of no kind it expects, and leaves it to be reached).
func (p *parser) at(k int) tok {
	if p.i+k < len(p.toks) && p.i+k >= 0 {
		t := p.toks[p.i+k]
		if t.Kind == clex.Bad && k == 0 {
			fail("a literal or a directive line the lexer does not read at %d", t.Start)
		}
		return t
	}
	return tok{}
}

func (p *parser) text(t tok) string { return string(p.src[t.Start:t.End]) }

// is reports whether t is the punctuation s.
func (p *parser) is(t tok, s string) bool {
	return t.Kind == tPunct && int(t.End-t.Start) == len(s) && string(p.src[t.Start:t.End]) == s
}

func (p *parser) expect(s string) tok {
	t := p.peek()
	if !p.is(t, s) {
		fail("expected %q at %d, got %q", s, t.Start, p.text(t))
	}
	p.i++
	return t
}

func (p *parser) ref(t tok, call bool) {
	if !p.dry {
		p.e.ref(t, call)
	}
}

func (p *parser) define(d *def) (int32, bool) {
	if p.dry {
		return -1, false
	}
	return p.e.define(d)
}

func (p *parser) end(sym int32, opened bool, end uint32) {
	if !p.dry {
		p.e.end(sym, opened, end)
	}
}

// items parses declarations and directives up to the end of the file,
// a struct body's "}" or an #else, #elif or #endif.
func (p *parser) items(ctx int) {
	linkage := 0 // extern "C" blocks open at this level
	for {
		t := p.peek()
		switch {
		case t.Kind == 0:
			if linkage != 0 {
				fail("unclosed extern \"C\"")
			}
			return
		case t.Kind == tDir:
			if ctx == ctxTop && p.linkage(&linkage) {
				continue
			}
			if t.Dir == "else" || t.Dir == "elif" || t.Dir == "endif" {
				if linkage != 0 {
					fail("extern \"C\" across a conditional")
				}
				return
			}
			if ctx == ctxTop {
				p.topItem(func() { p.directive(ctx, nil) })
			} else {
				p.directive(ctx, nil)
			}
		case ctx == ctxField && p.is(t, "}"):
			return
		case p.is(t, ";"):
			p.i++
		case ctx == ctxTop && p.is(t, "{"):
			p.topItem(p.block)
		case ctx == ctxTop:
			p.topItem(func() { p.declaration(ctx) })
		default:
			p.declaration(ctx)
		}
	}
}

// block reads a compound statement at the level of the file, which
// tree-sitter-c takes as a top-level statement, read as a function's
// body is. One followed by a comma is an element of an initializer in
// a file made to be #included into one (Tk's ks_names.h: a table of
// { "name", value },), an error to tree-sitter, whose recovery on such
// a file runs past its budget with no record; the scanner reads the
// elements' references.
func (p *parser) block() {
	p.noBlockDeclaration()
	p.i++ // {
	b := bodyState{depth: 1}
	var dos []int
	p.body(&b, &dos)
	if p.is(p.peek(), ",") {
		p.i++
	}
}

// directive handles a directive at p.i; in a function body, b carries
// the body's state, which each branch must leave as it found it.
func (p *parser) directive(ctx int, b *bodyState) {
	t := p.peek()
	p.i++
	switch t.Dir {
	case "define":
		p.macro(t)
	case "include":
		if ctx == ctxField {
			// tree-sitter-c reads a preproc_call there, no import
			for p.peek().Kind != tEOL && p.peek().Kind != 0 {
				p.i++
			}
			p.eol()
			return
		}
		if ctx != ctxTop {
			fail("#include in an enum") // an error to tree-sitter, the import dropped
		}
		path := p.peek()
		p.i++
		if !p.dry {
			s := p.src[path.Start+1 : path.End-1]
			if s := trimSpace(string(s)); s != "" {
				p.e.res.Imports = append(p.e.res.Imports, extract.Import{Path: s, Line: t.Line})
			}
		}
		p.eol()
	case "if", "ifdef", "ifndef":
		p.condition(t.Dir)
		top := ctx == ctxTop && b == nil && !p.dry
		if top {
			p.reg.Open(p.lineSpan(t))
		}
		p.conditional(ctx, b, top)
	case "else", "elif", "endif":
		fail("#%s without #if", t.Dir)
	default:
		p.eol()
	}
}

// conditional parses the branches of an #if after its condition.
// top: a top-level conditional, whose lines condLine records.
func (p *parser) conditional(ctx int, b *bodyState, top bool) {
	var at bodyState
	if b != nil {
		at = *b
	}
	for {
		if b != nil {
			p.bodyUntilDirective(b)
			if *b != at {
				fail("a conditional's branch splits a statement")
			}
		} else if ctx == ctxEnum {
			p.enumBody()
		} else {
			p.items(ctx)
		}
		t := p.peek()
		if t.Kind != tDir {
			fail("unterminated #if")
		}
		p.i++
		switch t.Dir {
		case "endif":
			p.eol()
			if top {
				p.reg.Close(p.lineSpan(t))
			}
			return
		case "else":
			p.eol()
		case "elif":
			p.condition("if")
		}
		if top {
			p.reg.Line(p.lineSpan(t))
		}
	}
}

func (p *parser) eol() {
	if t := p.peek(); t.Kind != tEOL {
		fail("directive text at %d", t.Start)
	}
	p.i++
}

// macro records a #define: a constant, or a function with parameters.
func (p *parser) macro(hash tok) {
	name := p.peek()
	if name.Kind != tIdent {
		fail("#define of %q", p.text(name))
	}
	// A keyword's #define (bool, double, __inline__, true, NULL) is an
	// error tree to tree-sitter, with no symbol; the scanner records the
	// macro (TestScanWhereTreeSitterIsWrong).
	p.i++
	kind := extract.KindConstant
	if t := p.peek(); p.is(t, "(") && t.Start == name.End {
		kind = extract.KindFunction
	}
	sym, opened := p.define(&def{kind: kind, node: hash.Start, decl: hash.Start, declLine: hash.Line, name: name})
	p.ref(name, false)
	if kind == extract.KindFunction {
		for p.i++; ; p.i++ {
			t := p.peek()
			if t.Kind == tIdent {
				p.ref(t, false)
			} else if p.is(t, ")") {
				p.i++
				break
			}
		}
	}
	t := p.peek()
	p.eol()
	p.end(sym, opened, t.Start)
}

// condition reads an #if, #elif, #ifdef or #ifndef condition to the
// line's end: names are references, defined is an operator, a name
// before "(" is called.
func (p *parser) condition(dir string) {
	var ternary, defined bool
	switch first := p.peek(); {
	case first.Kind == tEOL:
		fail("#%s without a condition", dir) // tree-sitter reads the next line's
	case dir != "if" && (first.Kind != tIdent || p.at(1).Kind != tEOL):
		fail("#%s not followed by one name", dir)
	}
	for {
		t := p.peek()
		switch {
		case t.Kind == tEOL:
			p.i++
			if ternary && defined {
				fail("defined in a conditional expression") // tree-sitter reads a name there
			}
			return
		case t.Kind == tIdent:
			s := p.text(t)
			if s == "defined" {
				defined = true
				break
			}
			switch words[s] {
			case wIdent:
			case wExpr:
				if dir != "if" {
					fail("#%s %s", dir, s)
				}
				p.i++
				continue
			default:
				// #if defined(intptr_t), #ifndef offsetof: a keyword,
				// to tree-sitter, and an error tree, to the scanner the
				// macro name it is (TestScanWhereTreeSitterIsWrong).
			}
			if p.is(p.at(1), "(") && p.is(p.at(2), "<") {
				fail("__has_include(<...>)")
			}
			p.ref(t, dir == "if" && p.is(p.at(1), "("))
		case p.is(t, "?"):
			ternary = true
			p.branch()
		case p.is(t, "&&") || p.is(t, "||"):
			p.branch()
		}
		p.i++
	}
}

func (p *parser) branch() {
	if !p.dry {
		p.e.branch()
	}
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return s[i:j]
}

// linkage reads the two halves of C++ linkage around a header,
//
//	#ifdef __cplusplus        #ifdef __cplusplus
//	extern "C" {              }
//	#endif                    #endif
//
// whose records are those of the declarations between: tree-sitter-c
// reads the first as a linkage specification holding an #endif call
// and the second as an #ifdef, never closed, before the block's "}".
// Both halves must be at one level of the conditionals.
func (p *parser) linkage(open *int) bool {
	t, name, eol := p.peek(), p.at(1), p.at(2)
	if t.Dir != "ifdef" || name.Kind != tIdent || eol.Kind != tEOL {
		return false
	}
	switch {
	case p.text(p.at(3)) == "extern" && p.at(4).Kind == tStr && p.text(p.at(4)) == "\"C\"" &&
		p.is(p.at(5), "{") && p.at(6).Dir == "endif" && p.at(7).Kind == tEOL:
		*open++
		p.ref(name, false)
		p.i += 8
	case *open > 0 && p.is(p.at(3), "}") && p.at(4).Dir == "endif" && p.at(5).Kind == tEOL:
		*open--
		p.ref(name, false)
		p.i += 6
	default:
		return false
	}
	return true
}

// noBlockDeclaration declines the top-level block at p.i if a statement
// in it may be a declaration (a type's keyword, or a name before a name
// or "*"): the walker records a variable declared there, outside any
// function, which the scanner, reading the block as a body, would not.
func (p *parser) noBlockDeclaration() {
	depth := 0
	for k := 0; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0:
			return
		case p.is(t, "{"):
			depth++
		case p.is(t, "}"):
			if depth--; depth == 0 {
				return
			}
		}
		switch w := p.word(t); {
		case w == wPrim || w == wSized || w == wTag || w == wQual || w == wStatic || w == wTypedef,
			w == wIdent && k > 0 && (p.at(k-1).Kind == tEOL || p.is(p.at(k-1), "{") || p.is(p.at(k-1), ";") ||
				p.is(p.at(k-1), "}")) && (p.at(k+1).Kind == tIdent || p.is(p.at(k+1), "*")):
			fail("a declaration in a top-level block at %d", t.Start)
		}
	}
}
