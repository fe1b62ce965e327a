package workspace

import (
	"math/bits"
	"strings"
)

// IgnoreRules is the compiled form of one gitignore-style file. Patterns are
// parsed once into glob programs (literal/prefix/suffix fast paths or a small
// NFA) so matching a path never allocates on the common paths and never
// builds a regexp.
//
// An IgnoreRules is immutable after ParseIgnore and safe for concurrent use.
type IgnoreRules struct {
	base string // slash-separated directory relative to the walk root; "" for the root
	pats []ignorePattern
}

type ignorePattern struct {
	g        glob
	negate   bool // leading "!": a match re-includes
	dirOnly  bool // trailing "/": matches directories only
	anchored bool // contained a "/" (other than trailing): matched against the path below base, else against the base name
}

// ParseIgnore compiles the content of an ignore file living in directory base
// (slash-separated, relative to the walk root, "" for the root itself).
// Lines follow gitignore(5): blank lines and "#" comments are skipped, "\#"
// and "\!" escape, unescaped trailing spaces are trimmed, "!" negates, a
// trailing "/" restricts to directories, a "/" at the start or middle anchors
// the pattern to base, and "*", "?", "[...]", "**/", "/**" and "/**/" have
// their git meanings. Malformed patterns (e.g. an unterminated "[") never
// match, as in git.
func ParseIgnore(base string, content []byte) *IgnoreRules {
	r := &IgnoreRules{base: strings.Trim(base, "/")}
	text := strings.TrimPrefix(string(content), "\xEF\xBB\xBF") // git skips a UTF-8 BOM
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if p, ok := parseIgnoreLine(line); ok {
			r.pats = append(r.pats, p)
		}
	}
	return r
}

// Len reports the number of effective patterns, mainly for diagnostics.
func (r *IgnoreRules) Len() int { return len(r.pats) }

// parseIgnoreLine mirrors git's add_patterns_from_buffer + parse_path_pattern.
func parseIgnoreLine(line string) (ignorePattern, bool) {
	line = strings.TrimSuffix(line, "\r") // git strips CR of CRLF files
	if line == "" || line[0] == '#' {
		return ignorePattern{}, false
	}
	line = trimTrailingSpaces(line)
	var p ignorePattern
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	if line == "" {
		// "/", "!" or "!/" match nothing in git; dropping them is equivalent.
		return ignorePattern{}, false
	}
	p.anchored = strings.IndexByte(line, '/') >= 0
	line = strings.TrimPrefix(line, "/")
	p.g = compileGlob(line)
	return p, true
}

// trimTrailingSpaces removes trailing ' ' unless escaped with a backslash,
// exactly like git's trim_trailing_spaces (tabs are kept).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// Match reports whether rel (slash-separated, relative to the walk root) is
// matched by these rules, and if so whether the last matching pattern ignores
// it (ignore=false means a "!" pattern re-included it). Paths not under the
// rules' base never match. Match does not know about parent directories: a
// file under an ignored directory must be handled by the caller not
// descending, which is how git behaves too.
func (r *IgnoreRules) Match(rel string, isDir bool) (matched, ignore bool) {
	sub := rel
	if r.base != "" {
		if len(rel) <= len(r.base) || rel[len(r.base)] != '/' || rel[:len(r.base)] != r.base {
			return false, false
		}
		sub = rel[len(r.base)+1:]
	}
	name := sub
	if i := strings.LastIndexByte(sub, '/'); i >= 0 {
		name = sub[i+1:]
	}
	// Later lines take precedence, so scan backwards and stop at the first hit.
	for i := len(r.pats) - 1; i >= 0; i-- {
		p := &r.pats[i]
		if p.dirOnly && !isDir {
			continue
		}
		target := name
		if p.anchored {
			target = sub
		}
		if p.g.match(target) {
			return true, !p.negate
		}
	}
	return false, false
}

type globKind uint8

const (
	globNever  globKind = iota // malformed pattern: git's wildmatch aborts, nothing matches
	globExact                  // no wildcards: string equality
	globSuffix                 // "*lit": no '/' and HasSuffix
	globPrefix                 // "lit*": no '/' after prefix and HasPrefix
	globNFA                    // anything else: state-set simulation over toks
)

// glob is a compiled wildmatch pattern with WM_PATHNAME semantics: '*', '?'
// and classes never match '/', "**" between slashes (or at an end) does.
type glob struct {
	kind globKind
	lit  string
	toks []globTok
	// For globNFA: the literal bytes the pattern must start and end with,
	// checked before running the automaton (most paths fail there).
	pre, suf string
	eps      []int // ascending indices of tokens with epsilon edges, for closure
}

type tokKind uint8

const (
	tokByte      tokKind = iota // exactly b
	tokAny                      // '?': any byte but '/'
	tokClass                    // [...]: a byte in set ('/' never in set)
	tokStar                     // '*': zero or more non-'/' bytes
	tokStarStar                 // "**" at an end: zero or more bytes
	tokDirsEntry                // "**/" part 1: consumes nothing; may skip the group (zero dirs) or enter tokDirsLoop
	tokDirsLoop                 // "**/" part 2: any bytes; a '/' may end the group
)

type globTok struct {
	kind tokKind
	b    byte
	set  *[4]uint64 // for tokClass; shared, read-only
}

// compileGlob turns a wildmatch pattern into a glob. It mirrors git's
// wildmatch.c token by token (see parseClass for the bracket rules); the
// differential fuzz test in ignore_test.go checks it against a direct port.
func compileGlob(p string) glob {
	var toks []globTok
	for i := 0; i < len(p); {
		switch c := p[i]; c {
		case '\\':
			if i+1 == len(p) {
				return glob{kind: globNever} // trailing backslash never matches in git
			}
			toks = append(toks, globTok{kind: tokByte, b: p[i+1]})
			i += 2
		case '?':
			toks = append(toks, globTok{kind: tokAny})
			i++
		case '[':
			set, next, ok := parseClass(p, i)
			if !ok {
				return glob{kind: globNever}
			}
			toks = append(toks, globTok{kind: tokClass, set: set})
			i = next
		case '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			toks, j = appendStar(toks, p, i, j)
			i = j
		default:
			toks = append(toks, globTok{kind: tokByte, b: c})
			i++
		}
	}
	return classify(toks)
}

// appendStar emits the token for the run of '*' at p[i:j] and returns the
// index to continue from. Per wildmatch, "**" is special only when preceded
// by the start or '/', and followed by the end, '/' or an escaped '/'.
func appendStar(toks []globTok, p string, i, j int) ([]globTok, int) {
	double := j-i >= 2 && (i == 0 || p[i-1] == '/')
	switch {
	case double && j == len(p):
		return append(toks, globTok{kind: tokStarStar}), j
	case double && p[j] == '/':
		// "(.*/)?": two states so that the zero-directory shortcut is only
		// available before anything was consumed ("**/foo" must not match "afoo").
		return append(toks, globTok{kind: tokDirsEntry}, globTok{kind: tokDirsLoop}), j + 1
	case double && p[j] == '\\' && j+1 < len(p) && p[j+1] == '/':
		// wildmatch skips the zero-directory shortcut here; the escaped '/'
		// is emitted as a literal by the caller.
		return append(toks, globTok{kind: tokStarStar}), j
	}
	return append(toks, globTok{kind: tokStar}), j
}

// classify picks a fast path when the token list allows one.
func classify(toks []globTok) glob {
	lits := 0
	for i := range toks {
		if toks[i].kind == tokByte {
			lits++
		}
	}
	literal := func(ts []globTok) string {
		b := make([]byte, len(ts))
		for i := range ts {
			b[i] = ts[i].b
		}
		return string(b)
	}
	n := len(toks)
	switch {
	case lits == n:
		return glob{kind: globExact, lit: literal(toks)}
	case lits == n-1 && toks[0].kind == tokStar && !strings.Contains(literal(toks[1:]), "/"):
		return glob{kind: globSuffix, lit: literal(toks[1:])}
	case lits == n-1 && toks[n-1].kind == tokStar:
		return glob{kind: globPrefix, lit: literal(toks[:n-1])}
	}
	g := glob{kind: globNFA, toks: toks}
	i := 0
	for i < n && toks[i].kind == tokByte {
		i++
	}
	j := n
	for j > i && toks[j-1].kind == tokByte {
		j--
	}
	g.pre, g.suf = literal(toks[:i]), literal(toks[j:])
	for k := range toks {
		switch toks[k].kind {
		case tokStar, tokStarStar, tokDirsEntry:
			g.eps = append(g.eps, k)
		}
	}
	return g
}

func (g *glob) match(s string) bool {
	switch g.kind {
	case globExact:
		return s == g.lit
	case globSuffix:
		return strings.HasSuffix(s, g.lit) && strings.IndexByte(s, '/') < 0
	case globPrefix:
		return strings.HasPrefix(s, g.lit) && strings.IndexByte(s[len(g.lit):], '/') < 0
	case globNFA:
		// pre and suf are separated by at least one non-literal token, so
		// they cannot overlap in a match.
		if len(s) < len(g.pre)+len(g.suf) || !strings.HasPrefix(s, g.pre) || !strings.HasSuffix(s, g.suf) {
			return false
		}
		return g.matchNFA(s)
	}
	return false
}

// matchNFA simulates the token automaton with a bitset of live states, so
// the cost is O(len(s) * len(toks)/64) with no backtracking blow-up on
// pathological patterns such as "*a*a*a*a*b".
func (g *glob) matchNFA(s string) bool {
	n := len(g.toks)
	words := n/64 + 1
	var bufA, bufB [4]uint64
	cur, next := bufA[:], bufB[:]
	if words > len(bufA) {
		cur, next = make([]uint64, words), make([]uint64, words)
	}
	cur, next = cur[:words], next[:words]
	cur[0] = 1
	g.closure(cur)
	for i := 0; i < len(s); i++ {
		c := s[i]
		clear(next)
		live := false
		for w, word := range cur {
			for word != 0 {
				k := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if k == n {
					continue // accept state consumes nothing
				}
				if g.step(k, c, next) {
					live = true
				}
			}
		}
		if !live {
			return false
		}
		g.closure(next)
		cur, next = next, cur
	}
	return cur[n/64]&(1<<(n%64)) != 0
}

// step applies byte c to state k, setting successor states in next.
func (g *glob) step(k int, c byte, next []uint64) bool {
	set := func(j int) { next[j/64] |= 1 << (j % 64) }
	t := &g.toks[k]
	switch t.kind {
	case tokByte:
		if c != t.b {
			return false
		}
		set(k + 1)
	case tokAny:
		if c == '/' {
			return false
		}
		set(k + 1)
	case tokClass:
		if t.set[c/64]&(1<<(c%64)) == 0 {
			return false
		}
		set(k + 1)
	case tokStar:
		if c == '/' {
			return false
		}
		set(k)
	case tokStarStar:
		set(k)
	case tokDirsEntry:
		return false // handled by closure
	case tokDirsLoop:
		set(k)
		if c == '/' {
			set(k + 1)
		}
	}
	return true
}

// closure adds epsilon successors: stars may match nothing, and "**/" may
// match nothing. Epsilon edges only go forward, so one ascending pass
// suffices.
func (g *glob) closure(states []uint64) {
	set := func(j int) { states[j/64] |= 1 << (j % 64) }
	for _, k := range g.eps {
		if states[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		switch g.toks[k].kind {
		case tokStar, tokStarStar:
			set(k + 1)
		case tokDirsEntry:
			set(k + 1)
			set(k + 2)
		}
	}
}

// parseClass parses the bracket expression starting at p[i] == '[' exactly
// as wildmatch.c does: '!' or '^' negates, the first member may be ']',
// backslash escapes, "a-z" ranges, "[:alpha:]"-style classes; a "[:" without
// a closing ":]" is taken literally. It returns the member set (never
// containing '/') and the index after the closing ']'; ok is false for a
// malformed expression, which makes the whole pattern unmatchable.
func parseClass(p string, i int) (set *[4]uint64, next int, ok bool) {
	var s [4]uint64
	add := func(c byte) { s[c/64] |= 1 << (c % 64) }
	i++
	if i >= len(p) {
		return nil, 0, false
	}
	negated := false
	if p[i] == '!' || p[i] == '^' {
		negated = true
		if i++; i >= len(p) {
			return nil, 0, false
		}
	}
	prev := -1 // previous member byte, -1 when a range/class just ended
	for {
		ch := p[i]
		switch {
		case ch == '\\':
			if i++; i >= len(p) {
				return nil, 0, false
			}
			ch = p[i]
			add(ch)
			prev = int(ch)
		case ch == '-' && prev >= 0 && i+1 < len(p) && p[i+1] != ']':
			i++
			hi := p[i]
			if hi == '\\' {
				if i++; i >= len(p) {
					return nil, 0, false
				}
				hi = p[i]
			}
			for c := prev; c <= int(hi); c++ {
				add(byte(c))
			}
			prev = -1
		case ch == '[' && i+1 < len(p) && p[i+1] == ':':
			end, isClass, valid := posixClass(p, i, add)
			if !valid {
				return nil, 0, false
			}
			if isClass {
				i, prev = end, -1
			} else {
				add('[') // no ":]": '[' is a plain member and ':' comes next
				prev = '['
			}
		default:
			add(ch)
			prev = int(ch)
		}
		if i++; i >= len(p) {
			return nil, 0, false
		}
		if p[i] == ']' {
			break
		}
	}
	if negated {
		for w := range s {
			s[w] = ^s[w]
		}
	}
	s['/'/64] &^= 1 << ('/' % 64)
	return &s, i + 1, true
}

// posixClass handles "[:name:]" at p[i]. It scans to the first ']' like
// wildmatch; isClass reports whether a ":]" terminated name was found (then
// end is the index of that ']'), valid is false for a missing ']' or an
// unknown class name.
func posixClass(p string, i int, add func(byte)) (end int, isClass, valid bool) {
	start := i + 2
	j := start
	for j < len(p) && p[j] != ']' {
		j++
	}
	if j >= len(p) {
		return 0, false, false
	}
	if j-start-1 < 0 || p[j-1] != ':' {
		return 0, false, true
	}
	pred := ctypeClass(p[start : j-1])
	if pred == nil {
		return 0, false, false
	}
	for c := 0; c < 128; c++ {
		if pred(byte(c)) {
			add(byte(c))
		}
	}
	return j, true, true
}

// ctypeClass returns the C-locale predicate for a POSIX class name.
func ctypeClass(name string) func(byte) bool {
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isAlpha := func(c byte) bool { return isUpper(c) || isLower(c) }
	isGraph := func(c byte) bool { return c > ' ' && c < 0x7f }
	switch name {
	case "alnum":
		return func(c byte) bool { return isAlpha(c) || isDigit(c) }
	case "alpha":
		return isAlpha
	case "blank":
		return func(c byte) bool { return c == ' ' || c == '\t' }
	case "cntrl":
		return func(c byte) bool { return c < ' ' || c == 0x7f }
	case "digit":
		return isDigit
	case "graph":
		return isGraph
	case "lower":
		return isLower
	case "print":
		return func(c byte) bool { return c >= ' ' && c < 0x7f }
	case "punct":
		return func(c byte) bool { return isGraph(c) && !isAlpha(c) && !isDigit(c) }
	case "space":
		return func(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
	case "upper":
		return isUpper
	case "xdigit":
		return func(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
	}
	return nil
}
