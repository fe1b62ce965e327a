package shellcmd

// Word resolution: turn a parsed shell word into the string the command
// receives, as far as that is knowable without running anything. Quotes
// and escapes are removed, brace expansions expanded, and the positional
// parameters of a `sh -c script $0 $1` call substituted (and, for the
// danger check's second reading, variables the script set to literals;
// see Script.expandVars). Anything else that expands at run time
// ($VAR, $(cmd), $((1+1))) keeps its source text and marks the word
// dynamic; globs are left unexpanded.

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds brace expansion of one word; beyond it the word is
// kept as written.
const maxBraceWords = 64

// words resolves a list of words; dyn[i] reports whether vals[i] needs
// run-time expansion.
func (p *scriptParser) words(ws []*syntax.Word) (vals []string, dyn []bool) {
	for _, w := range ws {
		vs, d := p.word(w)
		for _, v := range vs {
			vals = append(vals, v)
			dyn = append(dyn, d)
		}
	}
	return vals, dyn
}

// word resolves one word; brace expansion may yield several.
func (p *scriptParser) word(w *syntax.Word) ([]string, bool) {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(cp) {
		v, dyn := p.parts(w.Parts, false)
		return []string{v}, dyn
	}
	var out []string
	dynamic := false
	for bw, err := range expand.BracesSeq(nil, cp) {
		if err != nil || len(out) == maxBraceWords {
			v, dyn := p.parts(w.Parts, false)
			return []string{v}, dyn
		}
		v, dyn := p.parts(bw.Parts, false)
		out = append(out, v)
		dynamic = dynamic || dyn
	}
	return out, dynamic
}

// assign renders NAME=value with the value resolved.
func (p *scriptParser) assign(a *syntax.Assign) (string, bool) {
	name := ""
	if a.Name != nil {
		name = a.Name.Value
	}
	op := "="
	if a.Append {
		op = "+="
	}
	switch {
	case a.Value != nil:
		v, dyn := p.parts(a.Value.Parts, false)
		return name + op + v, dyn
	case a.Array != nil:
		return name + op + p.source(a.Array), true
	}
	return name + op, false
}

// parts resolves word parts; quoted is true inside double quotes.
func (p *scriptParser) parts(parts []syntax.WordPart, quoted bool) (string, bool) {
	var b strings.Builder
	dynamic := false
	for _, part := range parts {
		switch x := part.(type) {
		case *syntax.Lit:
			if quoted {
				b.WriteString(unescapeDouble(x.Value))
			} else {
				b.WriteString(unescapeBare(x.Value))
			}
		case *syntax.SglQuoted:
			if x.Dollar {
				b.WriteString(ansiC(x))
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.DblQuoted:
			v, dyn := p.parts(x.Parts, true)
			b.WriteString(v)
			dynamic = dynamic || dyn
		case *syntax.ParamExp:
			if v, ok := p.positionalParam(x); ok {
				b.WriteString(v)
				continue
			}
			if v, ok := p.literalVar(x); ok {
				b.WriteString(v)
				continue
			}
			b.WriteString(p.source(x))
			dynamic = true
		default: // command and process substitution, arithmetic, globs
			b.WriteString(p.source(x))
			dynamic = true
		}
	}
	return b.String(), dynamic
}

// positionalParam substitutes $0..$9, $@ and $* when the script was run
// by `sh -c script arg0 arg1 ...` with literal arguments.
func (p *scriptParser) positionalParam(x *syntax.ParamExp) (string, bool) {
	if p.positional == nil || !plainParam(x) {
		return "", false
	}
	switch name := x.Param.Value; name {
	case "@", "*":
		if len(p.positional) < 2 {
			return "", true
		}
		return strings.Join(p.positional[1:], " "), true
	default:
		n, err := strconv.Atoi(name)
		if err != nil || n < 0 {
			return "", false
		}
		if n < len(p.positional) {
			return p.positional[n], true
		}
		return "", true
	}
}

// literalVar substitutes $x and ${x} when the script is read with
// expandVars and assigned x a literal earlier (see Script.vars).
func (p *scriptParser) literalVar(x *syntax.ParamExp) (string, bool) {
	if p.s == nil || !p.s.expandVars || !plainParam(x) {
		return "", false
	}
	v, ok := p.s.vars[x.Param.Value]
	return v, ok
}

// plainParam reports $name or ${name} without any operator.
func plainParam(x *syntax.ParamExp) bool {
	return x.Param != nil && x.Exp == nil && x.Repl == nil && x.Slice == nil &&
		x.Index == nil && !x.Excl && !x.Length && x.Names == 0
}

// source returns a node's text in the script being parsed.
func (p *scriptParser) source(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if !n.Pos().IsValid() || start < 0 || end > len(p.src) || start > end {
		return "$?"
	}
	return p.src[start:end]
}

// unescapeBare removes backslash escapes of an unquoted literal.
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslash escapes double quotes honour.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the body of a $'...' string as bash does, through
// mvdan.cc/sh/v3/expand (which cuts the result at a NUL, as bash does:
// $'rm\0x' runs rm).
func ansiC(x *syntax.SglQuoted) string {
	q := &syntax.SglQuoted{Dollar: true, Value: bashEscapes(x.Value)}
	v, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{q}})
	if err != nil {
		// Only parameter, command and arithmetic expansions can fail;
		// a $'...' string holds none.
		return x.Value
	}
	return v
}

// bashEscapes rewrites the escapes of a $'...' body that expand decodes
// differently from bash into escapes it decodes the same: an octal escape
// above \377 (bash keeps the low eight bits, so $'\562\555' is "rm";
// expand gives 0xff) and a control escape \cX (expand keeps it as written;
// bash gives X&0x1f, and 0x7f for \c?).
func bashEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; {
		case '0' <= c && c <= '7':
			v, n := 0, 0
			for ; n < 3 && i+1+n < len(s) && '0' <= s[i+1+n] && s[i+1+n] <= '7'; n++ {
				v = v*8 + int(s[i+1+n]-'0')
			}
			fmt.Fprintf(&b, `\%03o`, v&0xff)
			i += n
		case c == 'c' && i+2 < len(s):
			x, used := s[i+2], 2
			if x == '\\' && i+3 < len(s) && s[i+3] == '\\' {
				used = 3 // \c\\ is the control character of a backslash
			}
			v := x & 0x1f
			if x == '?' {
				v = 0x7f
			}
			fmt.Fprintf(&b, `\x%02x`, v)
			i += used
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}
