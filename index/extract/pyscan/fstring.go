package pyscan

// String literals: adjacent literals make a concatenated_string, and an
// f-string's replacement fields are parsed as expressions, children of the
// string node, so their names are references like any other.

func (p *parser) strings() int32 {
	first := p.str()
	if p.peek().kind != tString {
		return first
	}
	n := p.t.mk(nConcatString, p.t.nodes[first].start, 0, first)
	for p.peek().kind == tString {
		p.t.add(n, p.str())
	}
	p.fixEnd(n)
	return n
}

func (p *parser) str() int32 {
	t := p.next()
	n := p.t.mk(nString, t.start, t.end)
	src := p.src
	q := t.start
	fstr, raw := false, false
	for src[q] != '\'' && src[q] != '"' {
		switch src[q] | 0x20 {
		case 'f':
			fstr = true
		case 'r':
			raw = true
		}
		q++
	}
	if !fstr {
		return n
	}
	open := uint32(1)
	if q+2 < t.end && src[q+1] == src[q] && src[q+2] == src[q] {
		open = 3
	}
	p.fields(n, int(q+open), int(t.end-open), raw)
	return n
}

// fields parses the replacement fields of the f-string text [s, e) into n.
func (p *parser) fields(n int32, s, e int, raw bool) {
	src := p.src
	for i := s; i < e; {
		switch c := src[i]; {
		case c == '\\' && !raw:
			if i+2 < e && src[i+1] == 'N' && src[i+2] == '{' {
				for i < e && src[i] != '}' {
					i++
				}
				i++
				continue
			}
			i += 2
		case c == '{' && i+1 < e && src[i+1] == '{', c == '}' && i+1 < e && src[i+1] == '}':
			i += 2
		case c == '}':
			p.fail("single '}' in an f-string")
		case c == '{':
			i = p.field(n, i+1, e, raw)
		default:
			i++
		}
	}
}

// field parses one replacement field whose expression starts at s; it
// returns the offset after its closing brace.
func (p *parser) field(n int32, s, e int, raw bool) int {
	src := p.src
	end := p.fieldEnd(s, e)
	toks, err := lexRange(src, s, end)
	if err != nil {
		panic(err)
	}
	sub := &parser{t: p.t, toks: toks, src: src}
	p.t.add(n, sub.yieldOrList())
	if sub.peek().kind != tEOF {
		p.fail("bad f-string field")
	}
	i := end
	if src[i] == '=' {
		i++
		for i < e && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	if i < e && src[i] == '!' {
		i += 2
	}
	if i < e && src[i] == ':' {
		i++
		for i < e && src[i] != '}' {
			if src[i] == '{' {
				i = p.field(n, i+1, e, raw)
				continue
			}
			i++
		}
	}
	if i >= e || src[i] != '}' {
		p.fail("unterminated f-string field")
	}
	return i + 1
}

// fieldEnd is where the expression of the field starting at s ends: at
// its '}', its conversion '!', its format spec ':' or its '=', outside
// brackets and nested strings.
func (p *parser) fieldEnd(s, e int) int {
	src := p.src
	depth := 0
	for i := s; i < e; i++ {
		switch c := src[i]; c {
		case '\'', '"':
			j, err := stringEnd(src[:e], i)
			if err != nil {
				p.fail("bad f-string")
			}
			i = j - 1
		case '(', '[', '{':
			depth++
		case ')', ']':
			depth--
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		case '!':
			if depth == 0 && i+1 < e && src[i+1] != '=' {
				return i
			}
			if i+1 < e && src[i+1] == '=' {
				i++
			}
		case ':':
			if depth == 0 {
				return i
			}
		case '=':
			if depth == 0 && i+1 < e && src[i+1] == '=' {
				i++
			} else if depth == 0 && i > s && !oneOfByte(src[i-1], "=!<>") {
				return i
			}
		case '#', '\\':
			p.fail("comment or backslash in an f-string field")
		}
	}
	p.fail("unterminated f-string field")
	return -1
}

func oneOfByte(b byte, set string) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == b {
			return true
		}
	}
	return false
}

// lexRange lexes the expression text [s, e) of an f-string field.
func lexRange(src []byte, s, e int) ([]tok, error) {
	l := &lexer{src: src[:e], pos: s, depth: 1, indents: []int{0}}
	for l.pos < e {
		c := src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			l.pos++
		case isNameStart(c):
			st := l.pos
			for l.pos < e && isNameByte(src[l.pos]) {
				l.pos++
			}
			if !validName(src[st:l.pos]) {
				return nil, fallback("invalid identifier")
			}
			if l.pos < e && (src[l.pos] == '\'' || src[l.pos] == '"') && isStrPrefix(src[st:l.pos]) {
				if err := l.str(st); err != nil {
					return nil, err
				}
				continue
			}
			l.emit(tName, st, l.pos)
		case c >= '0' && c <= '9' || c == '.' && l.pos+1 < e && src[l.pos+1] >= '0' && src[l.pos+1] <= '9':
			if l.number(); l.err != nil {
				return nil, l.err
			}
		case c == '\'' || c == '"':
			if err := l.str(l.pos); err != nil {
				return nil, err
			}
		default:
			if err := l.op(); err != nil {
				return nil, err
			}
		}
	}
	l.emit(tEOF, e, e)
	return l.toks, nil
}
