// Package cregion is what the C and C++ scanners (index/extract/cscan,
// cppscan) share to read a file in part (extract.Regions): the extent
// of a top-level item they decline, told by its brackets and
// conditionals alone (End), and the spans and kept lines they collect
// (Collector). It works on the C-family lexer's tokens
// (internal/clex); it is not safe for concurrent use, one Collector per
// scan.
package cregion

import (
	"github.com/parleyhq/parley/index/extract/internal/clex"
)

// Lang is the language whose items End delimits.
type Lang uint8

const (
	// C: a body's "}" ends an item after a function's ")" or an
	// old-style definition's parameter declarations.
	C Lang = iota
	// CPP: a body's "}" ends an item unless a ";" or a declarator
	// follows it on its line (classes, initializers).
	CPP
)

// Toks is a scanned file: the masked source its tokens were read from
// and whether a word is a keyword.
type Toks struct {
	Src     []byte
	Toks    []clex.Tok
	Keyword func(word string) bool
}

func (t *Toks) is(k int, s string) bool {
	if k < 0 || k >= len(t.Toks) {
		return false
	}
	x := t.Toks[k]
	return x.Kind == clex.Punct && int(x.End-x.Start) == len(s) && string(t.Src[x.Start:x.End]) == s
}

func (t *Toks) text(k int) string { return string(t.Src[t.Toks[k].Start:t.Toks[k].End]) }

func (t *Toks) name(k int) bool {
	return k >= 0 && k < len(t.Toks) && t.Toks[k].Kind == clex.Ident && !t.Keyword(t.text(k))
}

// End finds the last token of the top-level item starting at token s:
// a directive's line, an #if's group through its #endif, a declaration's
// ";" at depth 0, a body's "}" (by lang), or the token before an #else,
// #elif or #endif of the conditional the item is in, or before the "}"
// closing the block it is in. ok is false where the brackets do not
// tell.
func (t *Toks) End(s int, lang Lang) (last int, ok bool) {
	if isDirective(t.Toks[s]) {
		return t.directiveEnd(s)
	}
	depth, cond := 0, 0
	fnBody, assigned, oldStyle := false, false, false
	// The depth at each open #if: each branch starts from it, so that a
	// branch never compiled with a stray bracket (asio's
	// socket_ops.ipp) does not end the item in another.
	var atIf []int
	for k := s; k < len(t.Toks); k++ {
		x := t.Toks[k]
		if isDirective(x) {
			switch x.Dir {
			case "if", "ifdef", "ifndef":
				if depth == 0 && cond == 0 && t.linkageClose(k) {
					return k - 1, k > s
				}
				cond++
				atIf = append(atIf, depth)
			case "else", "elif", "endif":
				if cond == 0 {
					return k - 1, k > s
				}
				if x.Dir == "endif" {
					cond--
					atIf = atIf[:len(atIf)-1]
				} else {
					depth = atIf[len(atIf)-1]
				}
			}
			t.skipLine(&k)
			continue
		}
		if x.Kind != clex.Punct || x.End-x.Start != 1 {
			continue
		}
		switch t.Src[x.Start] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 && k == t.macroCallEnd(s, k) {
				return k, true
			}
			if lang == C && depth == 0 && !assigned && !oldStyle {
				oldStyle = t.OldStyleParams(k)
			}
		case '{':
			if depth == 0 {
				fnBody = k > s && (t.is(k-1, ")") || oldStyle) && !assigned
			}
			depth++
		case '}':
			depth--
			if depth < 0 {
				return k - 1, k > s
			}
			if depth != 0 || cond != 0 {
				break
			}
			switch {
			case lang == C && fnBody:
				return k, true
			case lang == CPP && t.is(k+1, ";"):
				return k + 1, true
			case lang == CPP && (k+1 >= len(t.Toks) || t.Toks[k+1].Line > x.Line):
				return k, true
			}
		case ';':
			if depth == 0 && cond == 0 && !oldStyle {
				return k, true
			}
		case '=':
			if depth == 0 {
				assigned = true
			}
		}
	}
	return len(t.Toks) - 1, depth == 0 && cond == 0
}

// OldStyleParams reports whether the ")" at k closes an old-style
// definition's parameter names, NAME(a, b), followed by their
// declarations and the body right after a ";" (F(x) y; is a macro
// type's declaration).
func (t *Toks) OldStyleParams(k int) bool {
	if k+1 >= len(t.Toks) || t.Toks[k+1].Kind != clex.Ident {
		return false
	}
	j := k - 1 // names and commas, alternating, back to the "("
	for ; t.name(j); j -= 2 {
		if !t.is(j-1, ",") {
			j--
			break
		}
	}
	if j >= k-1 || j <= 0 || !t.is(j, "(") || t.Toks[j-1].Kind != clex.Ident {
		return false
	}
	for j = k + 1; j < len(t.Toks); j++ {
		switch x := t.Toks[j]; {
		case t.is(j, "{"):
			return t.is(j-1, ";")
		case x.Kind == clex.Ident || t.is(j, "*") || t.is(j, ",") || t.is(j, ";"):
		default:
			return false
		}
	}
	return false
}

// macroCallEnd returns k when the item at s is a macro's call alone
// on its lines, NAME(...) with its ")" at k followed on a later line by
// the next call of the same macro (OSSL_CORE_MAKE_FUNC(int, f, (...))
// with no ";"), else -1.
func (t *Toks) macroCallEnd(s, k int) int {
	if k+2 >= len(t.Toks) || t.Toks[s].Kind != clex.Ident || !t.is(s+1, "(") {
		return -1
	}
	next := t.Toks[k+1]
	if next.Kind != clex.Ident || next.Line <= t.Toks[k].Line || t.text(k+1) != t.text(s) || !t.is(k+2, "(") {
		return -1
	}
	for j := s + 2; j < k; j++ {
		if t.is(j, "{") {
			return -1
		}
	}
	return k
}

// linkageClose reports whether the tokens at k are the closing half of
// a header's C++ linkage (#ifdef __cplusplus, "}", #endif), which ends
// any item before.
func (t *Toks) linkageClose(k int) bool {
	at := func(j int) clex.Tok {
		if k+j < len(t.Toks) {
			return t.Toks[k+j]
		}
		return clex.Tok{}
	}
	return at(0).Dir == "ifdef" && at(1).Kind == clex.Ident && at(2).Kind == clex.EOL &&
		t.is(k+3, "}") && at(4).Dir == "endif"
}

// isDirective reports whether x starts a directive: a Directive token,
// or a directive line the lexer made one Bad token.
func isDirective(x clex.Tok) bool {
	return x.Kind == clex.Directive || x.Kind == clex.Bad && x.Dir != ""
}

// skipLine moves *k from a directive's first token to its last: its
// EOL, or itself for a Bad one.
func (t *Toks) skipLine(k *int) {
	if t.Toks[*k].Kind == clex.Bad {
		return
	}
	for *k < len(t.Toks) && t.Toks[*k].Kind != clex.EOL {
		*k++
	}
}

// directiveEnd is the last token of the directive at s: its line's
// end, or an #if's matching #endif's.
func (t *Toks) directiveEnd(s int) (int, bool) {
	nest := 0
	for k := s; k < len(t.Toks); k++ {
		x := t.Toks[k]
		if !isDirective(x) {
			continue
		}
		switch x.Dir {
		case "if", "ifdef", "ifndef":
			nest++
		case "endif":
			nest--
		}
		t.skipLine(&k)
		if nest <= 0 {
			return k, k < len(t.Toks) && nest == 0
		}
	}
	return 0, false
}
