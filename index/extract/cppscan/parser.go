package cppscan

import (
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/clex"
	"github.com/parleyhq/parley/index/extract/internal/cregion"
)

// Contexts items are parsed in.
const (
	ctxTop   = iota // the file
	ctxNS           // a namespace body
	ctxClass        // a class, struct or union body
)

type parser struct {
	src  []byte // the original: names, signatures, docs
	m    []byte // as tree-sitter reads it (CppMask)
	toks []tok
	i    int
	e    *emitter
	dry  bool // a look-ahead: nothing is recorded
	// The declarators' symbols of the declaration being read, whose
	// ranges end at its ";".
	pending []pend
	reg     cregion.Collector
	// The first token of each item being read (outerItem), innermost
	// last: where a class's head starts.
	itemStarts []int
}

func newParser(src, masked []byte, toks []tok, comments []comment) *parser {
	lines := extract.LineStarts(src, make([]uint32, 0, len(src)/30+2))
	e := &emitter{src: src, lines: lines, res: &extract.Result{}, comments: comments,
		names: extract.Names{}, vars: map[varKey]bool{}}
	e.res.Refs = make([]extract.Ref, 0, len(src)/16+8)
	return &parser{src: src, m: masked, toks: toks, e: e}
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

func (p *parser) text(t tok) string { return string(p.m[t.Start:t.End]) }

// is reports whether t is the punctuation s.
func (p *parser) is(t tok, s string) bool {
	return t.Kind == tPunct && int(t.End-t.Start) == len(s) && string(p.m[t.Start:t.End]) == s
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

func (p *parser) branch() {
	if !p.dry {
		p.e.branch()
	}
}

// items parses declarations and directives up to the end of the file,
// a body's "}" or an #else, #elif or #endif.
func (p *parser) items(ctx int) {
	for {
		t := p.peek()
		switch {
		case t.Kind == 0:
			if ctx != ctxTop {
				fail("unclosed body")
			}
			return
		case t.Kind == tDir:
			if t.Dir == "else" || t.Dir == "elif" || t.Dir == "endif" {
				return
			}
			p.outerItem(func() { p.directive(ctx, nil) })
		case p.is(t, "}"):
			if ctx == ctxTop {
				fail("unmatched } at %d", t.Start)
			}
			return
		case p.is(t, ";"):
			p.i++
		case ctx == ctxClass && p.word(t) == wAccess && p.is(p.at(1), ":"):
			p.access(t)
			if !p.dry {
				// Kept with the class around a span: the walker's
				// members take their access from it.
				p.reg.Line(extract.Span{Start: t.Start, End: p.toks[p.i-1].End})
			}
		default:
			p.outerItem(func() { p.declaration(ctx) })
		}
	}
}

// access applies a public:, protected: or private: label (cppAccess).
func (p *parser) access(t tok) {
	p.i += 2
	if !p.dry {
		if sc := p.e.scopes.Inner(); sc != nil && sc.Kind == extract.ScopeType {
			sc.Access = p.text(t) != "private"
		}
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
		if ctx == ctxClass || b != nil {
			fail("#include in a body")
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
		outer := b == nil && !p.dry
		if outer {
			p.reg.Open(p.lineSpan(t))
		}
		p.conditional(ctx, b, outer)
	case "else", "elif", "endif":
		fail("#%s without #if", t.Dir)
	default:
		p.eol()
	}
}

// conditional parses the branches of an #if after its condition; outer:
// one between declarations, whose lines the Collector keeps if a span
// is declined inside.
func (p *parser) conditional(ctx int, b *bodyState, outer bool) {
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
		} else {
			p.items(ctx)
		}
		t := p.peek()
		if t.Kind != tDir {
			fail("unterminated #if at %d", t.Start)
		}
		p.i++
		switch t.Dir {
		case "endif":
			p.eol()
			if outer {
				p.reg.Close(p.lineSpan(t))
			}
			return
		case "else":
			p.eol()
		case "elif":
			p.condition("if")
		}
		if outer {
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
	if p.word(name) != wIdent {
		fail("#define of %q", p.text(name)) // NULL, true...: tree-sitter's literals
	}
	p.i++
	kind := extract.KindConstant
	if t := p.peek(); p.is(t, "(") && t.Start == name.End {
		kind = extract.KindFunction
	}
	sym, opened := p.define(&def{kind: kind, node: hash.Start, decl: hash.Start, declLine: hash.Line,
		first: hash.Start, firstLine: hash.Line, sig: hash.Start, name: name, nameEnd: name.End})
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
			switch w := words[s]; {
			case w == wIdent:
			case w == wDecline || w == wTypedef:
				fail("%s in a condition", s)
			default:
				if dir != "if" || !(s == "true" || s == "false") {
					fail("%s in a condition", s)
				}
				p.i++
				continue
			}
			if p.is(p.at(1), "(") && p.is(p.at(2), "<") {
				fail("__has_include(<...>)")
			}
			p.ref(t, dir == "if" && p.is(p.at(1), "("))
		case t.Kind == tStr || p.is(t, "##") || p.is(t, "#"):
			fail("%s in a condition", p.text(t))
		case p.is(t, "?"):
			ternary = true
			p.branch()
		case p.is(t, "&&") || p.is(t, "||"):
			p.branch()
		}
		p.i++
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
