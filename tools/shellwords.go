package tools

// Word resolution: turn a parsed shell word into the string the command
// receives, as far as that is knowable without running anything. Quotes
// and escapes are removed, brace expansions expanded, and the positional
// parameters of a `sh -c script $0 $1` call substituted (and, for the
// danger check's second reading, variables the script set to literals;
// see shellScript.expandVars). Anything else that expands at run time
// ($VAR, $(cmd), $((1+1))) keeps its source text and marks the word
// dynamic; globs are left unexpanded.

import (
	"strconv"
	"strings"
	"unicode/utf8"

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
				b.WriteString(ansiC(x.Value))
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
// expandVars and assigned x a literal earlier (see shellScript.vars).
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

// ansiC decodes the escapes of a $'...' string.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			n, v := hexRun(s[i+1:], max)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			i += n
			if c == 'x' {
				b.WriteByte(byte(v))
			} else if utf8.ValidRune(rune(v)) {
				b.WriteRune(rune(v))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
				v = v*8 + int(s[i+n]-'0')
				n++
			}
			i += n - 1
			b.WriteByte(byte(v))
		default: // \\ \' \" \? and unknown escapes
			if strings.IndexByte(`\'"?`, c) < 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// hexRun parses up to max hex digits at the start of s.
func hexRun(s string, max int) (n int, v uint64) {
	for n < max && n < len(s) {
		d, err := strconv.ParseUint(s[n:n+1], 16, 8)
		if err != nil {
			break
		}
		v = v*16 + d
		n++
	}
	return n, v
}
