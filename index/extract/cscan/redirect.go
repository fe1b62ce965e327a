package cscan

import "strings"

// redirect reads glibc's declaration of a function under an assembler
// name, `extern int __REDIRECT (f, (int x), alias) __THROW;` (and
// __REDIRECT_NTH, __REDIRECT_NTHNL, __REDIRECT_LDBL, ...), if t is its
// macro: cdefs.h defines __REDIRECT(name, proto, alias) as `name proto
// __asm__ (#alias)`, so the compiler reads a function declarator of f
// with the parameters proto. The macro is a called reference, f the
// declarator, the alias a reference; the macros after it are read as
// after any function declarator. Tree-sitter reads a function named
// __REDIRECT with a parameter missing its type, an error
// (TestScanWhereTreeSitterIsWrong). redirect returns f.
func (p *parser) redirect(t tok) tok {
	p.ref(t, true)
	p.i += 2
	name := p.peek()
	p.ref(name, false)
	p.i += 2 // f ,
	p.params()
	p.expect(",")
	alias := p.peek()
	if alias.Kind != tIdent || p.word(alias) != wIdent || !p.is(p.at(1), ")") {
		fail("a redirection's alias at %d", alias.Start)
	}
	p.ref(alias, false)
	p.i += 2
	p.macroAttributes()
	return name
}

// isRedirect reports whether t, at p.i, starts a redirection:
// __REDIRECT (f, (.
func (p *parser) isRedirect(t tok) bool {
	return t.Kind == tIdent && strings.HasPrefix(p.text(t), "__REDIRECT") && p.is(p.at(1), "(") &&
		p.at(2).Kind == tIdent && p.word(p.at(2)) == wIdent && p.is(p.at(3), ",") && p.is(p.at(4), "(")
}
