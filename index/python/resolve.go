package python

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// Python name resolution from syntax. At index time, while the extractor
// holds each file's tree, every occurrence gets a descriptor of what it
// binds to (describe.go); a query evaluates descriptors against the
// index (idx.go) and parses nothing when the buffer is the
// content the index holds. An edited buffer is parsed with the
// extractor's tree-sitter grammar and resolved here, the modules and
// classes a use leads to coming from their descriptors (parsed only when
// a module has none). Both follow the same rules, from one copy of the
// scope code (scope.go):
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

// file returns the Python file rel parsed (src when given, else read),
// from the cache when its content is unchanged.
func (r *resolver) file(rel string, src []byte) *syntax.File { return r.ParsedAs(rel, src, "python") }

// IsFile reports whether the file p is Python's (.py, .pyi).
func IsFile(p string) bool { return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi") }

// Definitions resolves the Python identifier containing byte offset off
// of src, the content of the file from (root-relative); read returns the
// content of other files of the store. When the index holds src for from,
// the occurrence's stored descriptor answers and nothing is parsed. ok is false when the syntax does not
// settle the declaration (builtins, unknown receivers, modules outside the
// root); the caller then falls back to name matching.
func Definitions(s *index.Store, from string, src []byte, off int, read func(rel string) ([]byte, error)) (syntax.Target, bool) {
	if !IsFile(from) {
		return syntax.Target{}, false
	}
	if t, ok, answered := pyIndexedDefinition(s, from, src, off, read); answered {
		return t, ok
	}
	r := newResolver(s, read)
	defer r.Release()
	f := r.file(from, src)
	if f == nil {
		return syntax.Target{}, false
	}
	id := identAt(f, off)
	if id == nil {
		return syntax.Target{}, false
	}
	return r.resolveIdent(f, id)
}

// identAt returns the identifier node containing or ending at off.
func identAt(f *syntax.File, off int) *ts.Node {
	start := index.IdentStart(f.Src, off)
	if start >= len(f.Src) || !index.IsIdentByte(f.Src[start]) {
		return nil
	}
	n := f.Tree.Root().NamedDescendantForByteRange(uint32(start), uint32(start))
	if n == nil || f.Type(n) != "identifier" || int(n.StartByte()) != start {
		return nil
	}
	return n
}

// resolveIdent resolves one identifier node of f.
func (r *resolver) resolveIdent(f *syntax.File, id *ts.Node) (syntax.Target, bool) {
	name := f.Text(id)
	p := id.Parent()
	if p != nil && f.Type(p) == "attribute" && syntax.SameNode(f.Field(p, "attribute"), id) {
		return r.member(r.eval(f, f.Field(p, "object")), name).Target()
	}
	if p != nil && f.Type(p) == "keyword_argument" && syntax.SameNode(f.Field(p, "name"), id) {
		return syntax.Target{}, false
	}
	if st := pyEnclosingImport(f, id); st != nil {
		return r.importPart(f, st, id).Target()
	}
	// A binding means the first binding of its name in its scope (what
	// pyright lists first); an import's, what it imports.
	if t, ok := r.lookup(f, id, name).Target(); ok {
		return t, true
	}
	if pyBindingNameOf(f, id) && pyEnclosingImport(f, id) == nil {
		return r.target(f, id), true
	}
	return syntax.Target{}, false
}

// target is the declaration named by the identifier id of f.
func (r *resolver) target(f *syntax.File, id *ts.Node) syntax.Target {
	t := syntax.Target{Path: f.Rel, Name: f.Text(id), Kind: extract.KindVariable, Selection: syntax.NodeRange(id)}
	switch p := id.Parent(); {
	case p == nil:
	case f.Type(p) == "class_definition":
		t.Kind = extract.KindClass
	case f.Type(p) == "function_definition":
		t.Kind = extract.KindFunction
	}
	scope := pyScopeOf(f, id)
	switch f.Type(scope) {
	case "class_definition":
		if n := f.Field(scope, "name"); n != nil {
			t.Container = f.Text(n)
		}
		if t.Kind == extract.KindFunction {
			t.Kind = extract.KindMethod
		}
	case "module":
	default:
		t.Local = true
	}
	if a := id.Parent(); a != nil && f.Type(a) == "attribute" {
		// self.x = ... in a method: a member of the method's class.
		if c := pyEnclosingClass(f, a); c != nil {
			t.Container = f.Text(f.Field(c, "name"))
			t.Kind = extract.KindField
			t.Local = false
		}
	}
	return t
}

// resolver is Python's resolver: the shared one (syntax.Resolver, which
// holds the store's tree cache until Release) with Python's rules.
type resolver struct{ *syntax.Resolver }

func newResolver(st *index.Store, read syntax.SourceReader) *resolver {
	return &resolver{syntax.NewResolver(st, read)}
}
