package index

import (
	"path"
	"strings"
	"time"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
)

// Python name resolution from syntax. At index time, while the extractor
// holds each file's tree, every occurrence gets a descriptor of what it
// binds to (resolve_pydesc.go); a query evaluates descriptors against the
// index (resolve_pyidx.go) and parses nothing when the buffer is the
// content the index holds. An edited buffer is parsed with the
// extractor's tree-sitter grammar and resolved here, the modules and
// classes a use leads to coming from their descriptors (parsed only when
// a module has none). Both follow the same rules, from one copy of the
// scope code (resolve_pyscope.go):
//
//   - lexical scopes: module, class (its own body only), function, lambda
//     and comprehension, with `global` and `nonlocal`; a name bound
//     anywhere in a function is local to all of it, as in Python.
//   - imports: `import a.b as c`, `from .x import y as z`, relative
//     imports through packages and `__init__.py`, `from m import *`, and
//     re-exports (a module that imports the name from another).
//   - module attributes `mod.name`, submodules `pkg.mod`.
//   - `self.x`/`cls.x` in a method to the class, then its bases when the
//     syntax names them; `x = C()`, `x: C` and annotated parameters
//     `p: C` to the members of C; attributes assigned as `self.x = ...` in
//     the class's methods.
//
// Modules are found by dotted name under the store root, then under the
// directories between the using file and the root (a script's siblings).

// pyStepLimit bounds the files one resolution parses and the links it
// follows (imports of imports, bases of bases).
const pyStepLimit = 40

// pyParseBytes bounds the source one request parses (files found in the
// tree cache are free): about 0.3 s of gotreesitter on one core. A
// resolution that needs more gives up, and the caller falls back.
const pyParseBytes = 768 << 10

// pyParseBudget is the parse budget of one file at query time.
const pyParseBudget = 2 * time.Second

// PyTarget is a resolved Python declaration: a binding in a file, or a
// whole module (Module set, Selection at the file's start).
type PyTarget struct {
	Path      string
	Name      string
	Container string // the enclosing class of a member
	Kind      extract.SymbolKind
	Selection extract.Range
	Module    bool
	// Local is set for a binding inside a function, lambda or
	// comprehension: only its own file can refer to it.
	Local bool
}

// NameHit is the target as a definition hit.
func (t PyTarget) NameHit() NameHit {
	return NameHit{Path: t.Path, Name: t.Name, Kind: t.Kind, Container: t.Container, Selection: t.Selection,
		Exported: !strings.HasPrefix(t.Name, "_")}
}

// pyFile is one parsed file.
type pyFile struct {
	rel  string
	src  []byte
	tree *extract.Tree
}

// text and typ accept nil (a missing field of a broken tree) as "".
func (f *pyFile) text(n *ts.Node) string {
	if n == nil || n.EndByte() > uint32(len(f.src)) || n.StartByte() > n.EndByte() {
		return ""
	}
	return string(f.src[n.StartByte():n.EndByte()])
}

func (f *pyFile) typ(n *ts.Node) string {
	if n == nil {
		return ""
	}
	return f.tree.Type(n)
}
func (f *pyFile) field(n *ts.Node, name string) *ts.Node {
	if n == nil {
		return nil
	}
	return f.tree.Field(n, name)
}

// pyResolver resolves names within one request. It holds the store's
// tree cache (pyTreeCache) from newPyResolver to release.
type pyResolver struct {
	st    *Store
	read  func(rel string) ([]byte, error)
	files map[string]*pyFile      // this request's files; nil when unreadable
	occ   map[string][]Occurrence // this request's occurrences read, by path and name
	memo  map[string]pyValue      // module and class members evaluated from them
	// indexOnly forbids parsing a module without descriptors (one whose
	// extraction ran out of budget): a references query judges thousands
	// of occurrences and must not parse a file for one of them.
	indexOnly bool
	steps     int
	parsed    int    // bytes parsed by this request (pyParseBytes)
	gen       uint64 // this resolver's number (Store.CancelResolutions)
}

func newPyResolver(st *Store, read func(rel string) ([]byte, error)) *pyResolver {
	st.py.lock()
	return &pyResolver{st: st, read: read, files: map[string]*pyFile{}, gen: st.py.gen.Add(1)}
}

func (r *pyResolver) release() { r.st.py.unlock() }

// step counts one unit of work and reports whether the limit allows it
// and the resolution is not cancelled.
func (r *pyResolver) step() bool {
	r.steps++
	return r.steps <= pyStepLimit && r.gen > r.st.py.cancelled.Load()
}

// file returns the Python file rel parsed (src when given, else read),
// from the cache when its content is unchanged.
func (r *pyResolver) file(rel string, src []byte) *pyFile { return r.parsedAs(rel, src, "python") }

func isPyFile(p string) bool { return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi") }

// PyDefinitions resolves the Python identifier containing byte offset off
// of src, the content of the file from (root-relative); read returns the
// content of other files of the store. When the index holds src for from,
// the occurrence's stored descriptor answers and nothing is parsed. ok is false when the syntax does not
// settle the declaration (builtins, unknown receivers, modules outside the
// root); the caller then falls back to name matching.
func (s *Store) PyDefinitions(from string, src []byte, off int, read func(rel string) ([]byte, error)) (PyTarget, bool) {
	if !isPyFile(from) {
		return PyTarget{}, false
	}
	if t, ok, answered := s.pyIndexedDefinition(from, src, off, read); answered {
		return t, ok
	}
	r := newPyResolver(s, read)
	defer r.release()
	f := r.file(from, src)
	if f == nil {
		return PyTarget{}, false
	}
	id := pyIdentAt(f, off)
	if id == nil {
		return PyTarget{}, false
	}
	return r.resolveIdent(f, id)
}

// pyIdentAt returns the identifier node containing or ending at off.
func pyIdentAt(f *pyFile, off int) *ts.Node {
	start := IdentStart(f.src, off)
	if start >= len(f.src) || !isIdentByte(f.src[start]) {
		return nil
	}
	n := f.tree.Root().NamedDescendantForByteRange(uint32(start), uint32(start))
	if n == nil || f.typ(n) != "identifier" || int(n.StartByte()) != start {
		return nil
	}
	return n
}

// resolveIdent resolves one identifier node of f.
func (r *pyResolver) resolveIdent(f *pyFile, id *ts.Node) (PyTarget, bool) {
	name := f.text(id)
	p := id.Parent()
	if p != nil && f.typ(p) == "attribute" && sameNode(f.field(p, "attribute"), id) {
		return r.member(r.eval(f, f.field(p, "object")), name).target()
	}
	if p != nil && f.typ(p) == "keyword_argument" && sameNode(f.field(p, "name"), id) {
		return PyTarget{}, false
	}
	if st := pyEnclosingImport(f, id); st != nil {
		return r.importPart(f, st, id).target()
	}
	// A binding means the first binding of its name in its scope (what
	// pyright lists first); an import's, what it imports.
	if t, ok := r.lookup(f, id, name).target(); ok {
		return t, true
	}
	if pyBindingNameOf(f, id) && pyEnclosingImport(f, id) == nil {
		return r.target(f, id), true
	}
	return PyTarget{}, false
}

func sameNode(a, b *ts.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte()
}

// pyValue is what an expression evaluates to, as far as syntax tells: a
// module, a class, an instance of a class, or a declaration (decl) whose
// value is not known.
type pyValue struct {
	decl     PyTarget
	ok       bool
	module   string   // rel path of a module
	class    *pyClass // a class or (instance) an instance of it
	instance bool
}

// pyClass is a class parsed (f and node) or known from the index
// (path and pos, its name's position; resolve_pyidx.go).
type pyClass struct {
	f    *pyFile
	node *ts.Node // class_definition
	path string
	pos  extract.Pos
}

func (v pyValue) target() (PyTarget, bool) { return v.decl, v.ok }

// target is the declaration named by the identifier id of f.
func (r *pyResolver) target(f *pyFile, id *ts.Node) PyTarget {
	t := PyTarget{Path: f.rel, Name: f.text(id), Kind: extract.KindVariable, Selection: pyRange(id)}
	switch p := id.Parent(); {
	case p == nil:
	case f.typ(p) == "class_definition":
		t.Kind = extract.KindClass
	case f.typ(p) == "function_definition":
		t.Kind = extract.KindFunction
	}
	scope := pyScopeOf(f, id)
	switch f.typ(scope) {
	case "class_definition":
		if n := f.field(scope, "name"); n != nil {
			t.Container = f.text(n)
		}
		if t.Kind == extract.KindFunction {
			t.Kind = extract.KindMethod
		}
	case "module":
	default:
		t.Local = true
	}
	if a := id.Parent(); a != nil && f.typ(a) == "attribute" {
		// self.x = ... in a method: a member of the method's class.
		if c := pyEnclosingClass(f, a); c != nil {
			t.Container = f.text(f.field(c, "name"))
			t.Kind = extract.KindField
			t.Local = false
		}
	}
	return t
}

func pyRange(n *ts.Node) extract.Range {
	s, e := n.StartPoint(), n.EndPoint()
	return extract.Range{Start: extract.Pos{Line: s.Row, Col: s.Column}, End: extract.Pos{Line: e.Row, Col: e.Column}}
}

// moduleTarget is the target of a whole module file.
func moduleTarget(rel string) PyTarget {
	name := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	if name == "__init__" {
		name = path.Base(path.Dir(rel))
	}
	return PyTarget{Path: rel, Name: name, Kind: extract.KindModule, Module: true}
}
