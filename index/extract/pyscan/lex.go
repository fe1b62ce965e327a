package pyscan

import (
	"errors"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// The lexer turns a file into Python's tokens: names, numbers, strings
// (one token per literal, an f-string's interpolations re-lexed by the
// parser), operators, NEWLINE at the end of each logical line, INDENT and
// DEDENT. Comments are not tokens the parser sees: every comment goes to
// the file's comment list, and a comment line between statements becomes
// a tComment token placed where tree-sitter-python's external scanner puts
// it (see indent), because a trailing comment line extends the block it
// belongs to, and with it the range of the def or class around it.

type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
	tNewline
	tIndent
	tDedent
	tComment // a whole-line comment between statements
)

// tok is one token: [start, end) in the source. A tNewline's aux is the
// end of a comment that shares the logical line's last physical line (0
// for none).
type tok struct {
	kind       tokKind
	start, end uint32
	aux        uint32
}

// errFallback marks input the scanner does not handle with certainty; the
// caller then uses the tree-sitter path. The message says why.
type errFallback struct {
	why  string
	line int
}

func (e *errFallback) Error() string {
	if e.line > 0 {
		return "pyscan: line " + strconv.Itoa(e.line) + ": " + e.why
	}
	return "pyscan: " + e.why
}

// Reason is err's message without the line, for counting.
func Reason(err error) string {
	var f *errFallback
	if errors.As(err, &f) {
		return f.why
	}
	return err.Error()
}

func fallback(why string) error { return &errFallback{why: why} }

// IsFallback reports whether err is the scanner declining a file.
func IsFallback(err error) bool {
	var f *errFallback
	return errors.As(err, &f)
}

// validName reports whether a name with non-ASCII bytes is an
// identifier: letters, marks, digits and connectors (Python's XID
// classes, near enough; a name with anything else declines the file).
func validName(b []byte) bool {
	for i, r := range string(b) {
		ok := r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
		if i > 0 {
			ok = ok || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r)
		}
		if !ok || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// comment is one comment of the file.
type comment struct{ start, end uint32 }

type lexer struct {
	src      []byte
	pos      int
	toks     []tok
	comments []comment
	indents  []int
	depth    int   // bracket nesting
	err      error // set by number
}

// lex tokenizes src completely.
func lex(src []byte) ([]tok, []comment, error) {
	l := &lexer{src: src, indents: []int{0}, toks: make([]tok, 0, len(src)/4+16)}
	if err := l.run(); err != nil {
		return nil, nil, err
	}
	return l.toks, l.comments, nil
}

func isNameStart(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b >= 0x80
}

func isNameByte(b byte) bool { return isNameStart(b) || b >= '0' && b <= '9' }

func (l *lexer) run() error {
	if len(l.src) >= 3 && l.src[0] == 0xef && l.src[1] == 0xbb && l.src[2] == 0xbf {
		l.pos = 3 // tree-sitter skips a UTF-8 byte order mark
	}
	if err := l.lineStart(true); err != nil {
		return err
	}
	src := l.src
	for l.pos < len(src) {
		c := src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			l.pos++
		case c == '\r' || c == '\n':
			if l.depth > 0 {
				l.pos++
				continue
			}
			if err := l.newline(0); err != nil {
				return err
			}
		case c == '#':
			s := l.pos
			l.skipLine()
			l.comments = append(l.comments, comment{uint32(s), uint32(l.pos)})
			if l.depth == 0 {
				if err := l.newline(uint32(l.pos)); err != nil {
					return err
				}
			}
		case c == '\\':
			if l.pos+1 < len(src) && src[l.pos+1] == '\n' {
				l.pos += 2
			} else if l.pos+2 < len(src) && src[l.pos+1] == '\r' && src[l.pos+2] == '\n' {
				l.pos += 3
			} else {
				return fallback("stray backslash")
			}
		case isNameStart(c):
			s := l.pos
			ascii := true
			for l.pos < len(src) && isNameByte(src[l.pos]) {
				ascii = ascii && src[l.pos] < 0x80
				l.pos++
			}
			if l.pos < len(src) && (src[l.pos] == '\'' || src[l.pos] == '"') && isStrPrefix(src[s:l.pos]) {
				if err := l.str(s); err != nil {
					return err
				}
				continue
			}
			if !ascii && !validName(src[s:l.pos]) {
				return fallback("invalid identifier")
			}
			l.emit(tName, s, l.pos)
		case c >= '0' && c <= '9' || c == '.' && l.pos+1 < len(src) && src[l.pos+1] >= '0' && src[l.pos+1] <= '9':
			if l.number(); l.err != nil {
				return l.err
			}
		case c == '\'' || c == '"':
			if err := l.str(l.pos); err != nil {
				return err
			}
		default:
			if err := l.op(); err != nil {
				return err
			}
		}
	}
	if l.depth > 0 {
		return fallback("unclosed bracket")
	}
	if n := len(l.toks); n > 0 && l.toks[n-1].kind != tNewline && l.toks[n-1].kind != tDedent && l.toks[n-1].kind != tComment {
		l.emit(tNewline, l.pos, l.pos)
	}
	l.dedentTo(0, nil)
	l.emit(tEOF, len(src), len(src))
	return nil
}

func (l *lexer) emit(k tokKind, s, e int) {
	l.toks = append(l.toks, tok{kind: k, start: uint32(s), end: uint32(e)})
}

func (l *lexer) skipLine() {
	for l.pos < len(l.src) && l.src[l.pos] != '\n' && l.src[l.pos] != '\r' {
		l.pos++
	}
}

// newline ends a logical line at l.pos (a line break, or the end of a
// trailing comment, commentEnd) unless the line was empty, then handles
// the indentation of the next line.
func (l *lexer) newline(commentEnd uint32) error {
	n := len(l.toks)
	if n > 0 && l.toks[n-1].kind != tNewline && l.toks[n-1].kind != tIndent && l.toks[n-1].kind != tDedent && l.toks[n-1].kind != tComment {
		l.toks = append(l.toks, tok{kind: tNewline, start: uint32(l.pos), end: uint32(l.pos), aux: commentEnd})
		return l.lineStart(false)
	}
	if commentEnd != 0 && n > 0 && l.toks[n-1].kind == tNewline {
		// Only a comment on this line: lineStart below saw it already.
		return l.lineStart(false)
	}
	return l.lineStart(false)
}

// afterNewline reports whether the last token but comments is a NEWLINE.
func (l *lexer) afterNewline() bool {
	for k := len(l.toks) - 1; k >= 0; k-- {
		if l.toks[k].kind != tComment {
			return l.toks[k].kind == tNewline
		}
	}
	return false
}

// commentLine is a whole-line comment waiting for the next code line.
type commentLine struct{ indent, start, end int }

// lineStart is called at a line break (or the start of the file): it
// skips blank and comment-only lines and emits DEDENT, INDENT and comment
// tokens in the order tree-sitter-python's scanner does (commentRun).
func (l *lexer) lineStart(first bool) error {
	src := l.src
	if !first {
		if l.pos < len(src) && src[l.pos] == '\r' {
			l.pos++
		}
		if l.pos < len(src) && src[l.pos] == '\n' {
			l.pos++
		}
	}
	var run []commentLine
	for {
		ind := 0
		for l.pos < len(src) && (src[l.pos] == ' ' || src[l.pos] == '\t' || src[l.pos] == '\f') {
			if src[l.pos] != ' ' {
				// Tabs and form feeds make tree-sitter's and Python's
				// indentation widths differ; not worth guessing.
				return fallback("tab or form feed in indentation")
			}
			ind++
			l.pos++
		}
		if l.pos >= len(src) {
			l.pos = len(src)
			l.commentRun(run, 0)
			return nil
		}
		switch src[l.pos] {
		case '\n', '\r':
			if src[l.pos] == '\r' {
				l.pos++
			}
			if l.pos < len(src) && src[l.pos] == '\n' {
				l.pos++
			}
			continue
		case '#':
			cs := l.pos
			l.skipLine()
			l.comments = append(l.comments, comment{uint32(cs), uint32(l.pos)})
			run = append(run, commentLine{ind, cs, l.pos})
			continue
		case '\\':
			return fallback("line continuation at a line start")
		}
		l.commentRun(run, ind)
		cur := l.indents[len(l.indents)-1]
		switch {
		case ind > cur:
			if first || !l.afterNewline() {
				return fallback("unexpected indent")
			}
			l.indents = append(l.indents, ind)
			l.emit(tIndent, l.pos, l.pos)
		case ind < cur:
			return l.dedentTo(ind, nil)
		}
		return nil
	}
}

// commentRun places the comment lines of run before the code line
// indented ind. tree-sitter-python's scanner emits a DEDENT before a run
// of comment lines only when the next code line is indented less than the
// current block and so is the run's first comment; it checks again after
// each DEDENT, and after each comment with the comments left. A comment
// left in a block extends the block's range.
func (l *lexer) commentRun(run []commentLine, ind int) {
	for k := 0; ; k++ {
		for len(l.indents) > 1 {
			cur := l.indents[len(l.indents)-1]
			if ind >= cur || k < len(run) && run[k].indent >= cur {
				break
			}
			l.indents = l.indents[:len(l.indents)-1]
			l.emit(tDedent, l.pos, l.pos)
		}
		if k >= len(run) {
			return
		}
		l.emit(tComment, run[k].start, run[k].end)
	}
}

// dedentTo pops indentation levels down to ind, which must be one of them.
func (l *lexer) dedentTo(ind int, _ []commentLine) error {
	for len(l.indents) > 1 && l.indents[len(l.indents)-1] > ind {
		l.indents = l.indents[:len(l.indents)-1]
		l.emit(tDedent, l.pos, l.pos)
	}
	if l.indents[len(l.indents)-1] != ind {
		return fallback("inconsistent dedent")
	}
	return nil
}
