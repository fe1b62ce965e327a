package extract

// The bookkeeping the tree-sitter walker and the hand-written scanners
// (index/extract/*scan) share, so that their records follow one rule: the
// stack of open declarations and the doc comment block. Each walker or
// scanner owns its values; nothing here is safe for concurrent use.

// ScopeKind says what a scanner's definition opens (scopeKind).
type ScopeKind = scopeKind

// The scope kinds, as the walker's.
const (
	ScopeNone = scopeNone
	ScopeType = scopeType
	ScopeFunc = scopeFunc
	ScopeNS   = scopeNS
)

// Scope is an open definition (or pseudo scope) enclosing a scanner's
// position.
type Scope struct {
	Sym      int32  // index into Result.Symbols, -1 for pseudo scopes
	Qual     string // container name for definitions inside
	Kind     ScopeKind
	Branches int  // decision points seen in a function scope
	Access   bool // its members are visible outside (Rust: not private; C++: public so far)
}

// Scopes is the stack of open scopes, innermost last.
type Scopes []Scope

// Inner is the innermost scope, or nil.
func (s Scopes) Inner() *Scope {
	if k := len(s); k > 0 {
		return &s[k-1]
	}
	return nil
}

// InFunc reports whether a function scope is open.
func (s Scopes) InFunc() bool {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].Kind == ScopeFunc {
			return true
		}
	}
	return false
}

// ParentSym is the innermost scope's symbol that is not a pseudo scope,
// or -1.
func (s Scopes) ParentSym() int32 {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].Sym >= 0 {
			return s[i].Sym
		}
	}
	return -1
}

// Branch counts n decision points towards the innermost scope when it is
// a function.
func (s Scopes) Branch(n int) {
	if k := len(s); k > 0 && s[k-1].Kind == ScopeFunc {
		s[k-1].Branches += n
	}
}

// Close pops the innermost scope; a function's symbol in syms gets its
// complexity, 1 + its decision points (capped at 65535).
func (s *Scopes) Close(syms []Symbol) {
	k := len(*s) - 1
	sc := (*s)[k]
	*s = (*s)[:k]
	if sc.Kind == ScopeFunc && sc.Sym >= 0 {
		syms[sc.Sym].Complexity = uint16(min(1+sc.Branches, 0xffff))
	}
}

// ScanDoc is the run of line comments (or one block comment) a scanner
// has just seen, as the walker's docBlock.
type ScanDoc struct {
	Valid      bool
	Start, End uint32 // byte range of the whole run
	EndLine    uint32
}

// Comment takes the comment src[start:end] on lines line to endLine:
// its TODOs are appended to res, and it starts or extends the doc block
// when it begins its line.
func (d *ScanDoc) Comment(src []byte, start, end, line, endLine uint32, res *Result) {
	if raw := src[start:end]; hasTodoTag(raw) {
		res.Todos = ScanTodos(string(raw), line, res.Todos)
	}
	if !StartsLine(src, int(start)) {
		d.Valid = false // a trailing comment documents the code before it
		return
	}
	if d.Valid && line <= d.EndLine+1 {
		d.End, d.EndLine = end, endLine
		return
	}
	*d = ScanDoc{Valid: true, Start: start, End: end, EndLine: endLine}
}

// For is the doc of a declaration starting at offset decl on line
// declLine (Take), as DocLine reads it.
func (d *ScanDoc) For(src []byte, declLine, decl uint32) string {
	if start, end, ok := d.Take(declLine, decl); ok {
		return DocLine(string(src[start:end]))
	}
	return ""
}

// Take returns the block's byte range when it documents a declaration
// starting at offset decl on line declLine: it ends on the line before,
// or on that line before decl. The block is used up either way.
func (d *ScanDoc) Take(declLine, decl uint32) (start, end uint32, ok bool) {
	ok = d.Valid && (d.EndLine+1 == declLine || d.EndLine == declLine && d.End <= decl)
	d.Valid = false
	return d.Start, d.End, ok
}
