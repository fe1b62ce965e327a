package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// Completion context from syntax: what the declarations a completion at a
// Go cursor needs are, resolved with the same type inference as
// MemberDefinitions. It runs per keystroke, so it parses the buffer once
// and reads the store through the cache kept with it.

// Cursor is what the syntax at a Go cursor asks for. Each part is empty
// when the syntax does not settle it.
type Cursor struct {
	// Members answers `x.` (or `x.Na` while the name is typed): the fields
	// and methods of x's type, or the exported API of the package x names.
	Members *MemberSet
	// Enclosing is the receiver type of the method the cursor is in.
	Enclosing *MemberSet
	// Calls are the declarations of the functions and methods called on
	// the cursor's line and the lines around it, nearest first.
	Calls []index.SymbolHit
}

// MemberSet is the members of one type or package.
type MemberSet struct {
	// Operand is x's source text; Type the type's name or the package's
	// import path; Package is set when x names an import.
	Operand string
	Type    string
	Package bool
	// Partial is the part of the member's name already typed.
	Partial string
	// Hits are ranked: those matching Partial, those the file already
	// uses, then functions and methods before types, fields and values;
	// the best MaxMembers of them.
	Hits []index.SymbolHit
}

// MaxMembers bounds a MemberSet's hits: no context budget holds more
// signatures (syscall exports thousands of names).
const MaxMembers = 256

// callLines is how many lines above and below the cursor's line Calls
// looks at; maxCalls bounds it.
const (
	callLines = 2
	maxCalls  = 8
)

// CompletionAt reads the cursor at byte offset off of src, the content of
// the Go file from (root-relative). Safe for concurrent use.
func CompletionAt(s *index.Store, from string, src []byte, off int) Cursor {
	if off < 0 || off > len(src) {
		return Cursor{}
	}
	start := off
	for start > 0 && isIdentByte(src[start-1]) {
		start--
	}
	partial := string(src[start:off])
	// A selector with no name yet does not parse as one (`x.` followed
	// by a newline joins the next line's name): a placeholder name ends
	// it where the cursor is.
	buf := src
	if partial == "" {
		placeholder := "_"
		if stmt := strings.TrimLeft(string(src[bytes.LastIndexByte(src[:off], '\n')+1:off]), " \t"); strings.HasPrefix(stmt, "defer ") || strings.HasPrefix(stmt, "go ") {
			placeholder = "_()" // defer and go take a call
		}
		buf = slices.Concat(src[:off], []byte(placeholder), src[off:])
	}
	fset := token.NewFileSet()
	// AllErrors: without it the parser stops after ten errors with an
	// empty file, and a buffer being typed has many.
	f, _ := parser.ParseFile(fset, from, buf, parser.SkipObjectResolution|parser.AllErrors)
	if f == nil {
		return Cursor{}
	}
	tf := fset.File(f.Pos())
	if tf == nil {
		return Cursor{}
	}
	cache := newLookupCache()
	cache.shared = operandTypesOf(s)
	cache.gen = cache.shared.generation(s.WriteGen())
	c := &cursorReader{st: s, from: from, f: f, tf: tf, cache: cache, fc: (&goTypeResolver{st: s}).fileContext(from, f)}
	var cur Cursor
	if start > 0 && src[start-1] == '.' {
		cur.Members = c.selectorMembers(start, partial)
	}
	cur.Enclosing = c.enclosingType(start)
	cur.Calls = c.nearbyCalls(start)
	return cur
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// cursorReader is one CompletionAt's parsed buffer and lookups.
type cursorReader struct {
	st    *index.Store
	from  string
	f     *ast.File
	tf    *token.File
	fc    *fileCtx
	cache *lookupCache
}

// resolver is a fresh resolver (its own step budget) over the shared
// lookups.
func (c *cursorReader) resolver() *goTypeResolver {
	return &goTypeResolver{st: c.st, cache: c.cache}
}

func (c *cursorReader) selectorMembers(nameOff int, partial string) *MemberSet {
	sel, stack := selectorAt(c.f, c.tf, nameOff)
	if sel == nil {
		return nil
	}
	r := c.resolver()
	set := &MemberSet{Operand: exprText(c.tf, sel.X), Partial: partial}
	if q, ok := sel.X.(*ast.Ident); ok && r.isImport(c.fc, stack, q) {
		ip := c.fc.imports[q.Name]
		set.Type, set.Package = ip.Path, true
		set.Hits = c.packageAPI(goType{imp: ip})
	} else if t, ok := r.exprType(c.fc, stack, sel.X, 0); ok && t != builtinError {
		set.Type = t.name
		set.Hits = c.typeMembers(t, 0)
	}
	if len(set.Hits) == 0 {
		return nil
	}
	c.rank(set)
	return set
}

// enclosingType is the receiver type of the method declared around off.
func (c *cursorReader) enclosingType(off int) *MemberSet {
	pos := c.tf.Pos(min(off, c.tf.Size()))
	for _, d := range c.f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || pos < fd.Pos() || pos > fd.End() {
			continue
		}
		t, ok := typeExpr(c.fc, fd.Recv.List[0].Type)
		if !ok {
			return nil
		}
		hits := c.typeMembers(t, 0)
		if len(hits) == 0 {
			return nil
		}
		set := &MemberSet{Operand: exprText(c.tf, fd.Recv.List[0].Type), Type: t.name, Hits: hits}
		c.rank(set)
		return set
	}
	return nil
}

// nearbyCalls resolves the callees of the calls on the lines around off,
// the cursor's line first, then outwards.
func (c *cursorReader) nearbyCalls(off int) []index.SymbolHit {
	line := c.tf.Line(c.tf.Pos(min(off, c.tf.Size())))
	type call struct {
		dist  int
		c     *ast.CallExpr
		stack []ast.Node
	}
	var calls []call
	var stack []ast.Node
	ast.Inspect(c.f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		l0, l1 := c.tf.Line(n.Pos()), c.tf.Line(n.End())
		if l1 < line-callLines || l0 > line+callLines {
			return false
		}
		if ce, ok := n.(*ast.CallExpr); ok {
			at := c.tf.Line(ce.Lparen)
			if d := max(at-line, line-at); d <= callLines {
				calls = append(calls, call{d, ce, slices.Clone(stack)})
			}
		}
		stack = append(stack, n)
		return true
	})
	slices.SortStableFunc(calls, func(a, b call) int { return a.dist - b.dist })
	var out []index.SymbolHit
	seen := map[string]bool{}
	for _, cl := range calls {
		if len(out) == maxCalls {
			break
		}
		h, ok := c.resolver().callee(c.fc, cl.stack, cl.c, 0)
		if !ok {
			continue
		}
		key := h.Path + "\x00" + h.Symbol.Container + "\x00" + h.Symbol.Name
		if !seen[key] && h.Path != c.from {
			seen[key] = true
			out = append(out, h)
		}
	}
	return out
}

// typeMembers lists t's fields and methods and, one level at a time, those
// of the types it embeds (an embedded type's member a shallower one
// shadows is left out).
func (c *cursorReader) typeMembers(t goType, depth int) []index.SymbolHit {
	if depth > maxTypeDepth {
		return nil
	}
	var out, embedded []index.SymbolHit
	for _, ds := range c.dirsIn(t.inDir) {
		for _, h := range ds.byContainer[t.name] {
			if k := h.Symbol.Kind; k == extract.KindField || k == extract.KindInterface {
				if f, ok := parseFieldSig(h.Symbol.Signature); ok && len(f.Names) == 0 {
					embedded = append(embedded, h)
					continue
				}
			}
			out = append(out, h)
		}
	}
	if !t.inDir(path.Dir(c.from)) {
		// Another package's unexported members are not reachable.
		out = slices.DeleteFunc(out, func(h index.SymbolHit) bool { return !h.Symbol.Exported })
	}
	have := map[string]bool{}
	for _, h := range out {
		have[h.Symbol.Name] = true
	}
	for _, e := range embedded {
		f, _ := parseFieldSig(e.Symbol.Signature)
		et, ok := typeExpr(c.resolver().storedFileContext(e.Path), f.Type)
		if !ok || et == t {
			continue
		}
		for _, h := range c.typeMembers(et, depth+1) {
			if !have[h.Symbol.Name] {
				have[h.Symbol.Name] = true
				out = append(out, h)
			}
		}
	}
	return c.samePort(out)
}

// packageAPI is the exported top-level declarations of the package t
// names, outside test files: those that build with the cursor's file
// when there are any, else all (one per platform is not told apart
// then). The slice may be shared with the directory's table: it is not
// to be modified.
func (c *cursorReader) packageAPI(t goType) []index.SymbolHit {
	port := index.PortOf(c.from, buildOf(c.st, c.from))
	var same, all []index.SymbolHit
	dirs := c.dirsIn(t.inDir)
	for _, ds := range dirs {
		a := ds.exportedAPI(c.st, port)
		if len(dirs) == 1 {
			same, all = a.same, a.all
			break
		}
		same, all = append(same, a.same...), append(all, a.all...)
	}
	if len(same) > 0 {
		return same
	}
	return all
}

// samePort keeps one declaration per platform: those that build with the
// cursor's file, when there are any.
func (c *cursorReader) samePort(hits []index.SymbolHit) []index.SymbolHit {
	builds := portFilter(c.st, index.PortOf(c.from, buildOf(c.st, c.from)))
	var same []index.SymbolHit
	for _, h := range hits {
		if builds(h.Path) {
			same = append(same, h)
		}
	}
	if len(same) > 0 {
		return same
	}
	return hits
}

// portFilter reports whether a file builds on port, reading each file's
// build line once.
func portFilter(st *index.Store, port index.GoPort) func(path string) bool {
	admits := map[string]bool{}
	return func(p string) bool {
		ok, seen := admits[p]
		if !seen {
			ok = port.Admits(p, buildOf(st, p))
			admits[p] = ok
		}
		return ok
	}
}

// rank orders set's hits: names starting with what is typed, names the
// file already refers to, names its package refers to, callables, then
// by name.
func (c *cursorReader) rank(set *MemberSet) {
	refs, _, _ := c.st.FileNames(c.from)
	used := make(map[string]bool, len(refs))
	for _, r := range refs {
		used[r] = true
	}
	var pkgUsed map[string]bool
	g := goDirsOf(c.st)
	if d, ok := g.dirOf(path.Dir(c.from)); ok {
		pkgUsed = g.refsOf(d, c.from)
	}
	partial := set.Partial
	score := func(h *index.SymbolHit) int {
		s := 0
		if name := h.Symbol.Name; partial != "" && len(name) >= len(partial) && strings.EqualFold(name[:len(partial)], partial) {
			s += 8
		}
		if used[h.Symbol.Name] {
			s += 4
		}
		if pkgUsed[h.Symbol.Name] {
			s += 2
		}
		if k := h.Symbol.Kind; k == extract.KindFunction || k == extract.KindMethod {
			s++
		}
		return s
	}
	// Indices are sorted, not the hits: set.Hits may be a directory's
	// shared table (packageAPI), and a hit is a large struct.
	type scored struct{ i, s int }
	ss := make([]scored, len(set.Hits))
	for i := range set.Hits {
		ss[i] = scored{i, score(&set.Hits[i])}
	}
	slices.SortStableFunc(ss, func(a, b scored) int {
		if d := b.s - a.s; d != 0 {
			return d
		}
		return strings.Compare(set.Hits[a.i].Symbol.Name, set.Hits[b.i].Symbol.Name)
	})
	out := make([]index.SymbolHit, min(len(ss), MaxMembers))
	for i := range out {
		out[i] = set.Hits[ss[i].i]
	}
	set.Hits = out
}

// dirsIn is the symbol tables of the directories inDir accepts.
func (c *cursorReader) dirsIn(inDir func(string) bool) []*dirSymbols {
	g := goDirsOf(c.st)
	var out []*dirSymbols
	for _, d := range g.list() {
		if inDir(d.dir) {
			out = append(out, g.symbolsOf(d))
		}
	}
	return out
}

func exprText(tf *token.File, e ast.Expr) string {
	var b strings.Builder
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(n.Name)
		case *ast.CallExpr:
			ast.Inspect(n.Fun, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					if b.Len() > 0 {
						b.WriteByte('.')
					}
					b.WriteString(id.Name)
				}
				return true
			})
			b.WriteString("()")
			return false
		}
		return true
	})
	return b.String()
}
