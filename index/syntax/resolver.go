package syntax

import (
	"path"
	"strings"
	"time"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// StepLimit bounds the files one resolution parses and the links it
// follows (imports of imports, bases of bases).
const StepLimit = 40

// ParseBytes bounds the source one request parses (files found in the
// tree cache are free): about 0.3 s of gotreesitter on one core. A
// resolution that needs more gives up, and the caller falls back.
const ParseBytes = 768 << 10

// ParseBudget is the parse budget of one file at query time.
const ParseBudget = 2 * time.Second

// Target is a declaration resolved from syntax (Python, TypeScript or
// JavaScript): a binding in a file, or a whole module (Module set,
// Selection at the file's start).
type Target struct {
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
func (t Target) NameHit() index.NameHit {
	return index.NameHit{Path: t.Path, Name: t.Name, Kind: t.Kind, Container: t.Container, Selection: t.Selection,
		Exported: !strings.HasPrefix(t.Name, "_")}
}

// File is one parsed file (its tree is owned by the Cache that holds it:
// it stays valid while the resolver that got it holds the cache).
type File struct {
	Rel  string
	Src  []byte
	Tree *extract.Tree
}

// Text, Type and Field accept nil (a missing field of a broken tree):
// they answer "" or nil.
func (f *File) Text(n *ts.Node) string {
	if n == nil || n.EndByte() > uint32(len(f.Src)) || n.StartByte() > n.EndByte() {
		return ""
	}
	return string(f.Src[n.StartByte():n.EndByte()])
}

// Type is n's node type.
func (f *File) Type(n *ts.Node) string {
	if n == nil {
		return ""
	}
	return f.Tree.Type(n)
}

// Field is n's child in field name.
func (f *File) Field(n *ts.Node, name string) *ts.Node {
	if n == nil {
		return nil
	}
	return f.Tree.Field(n, name)
}

// Resolver is the state one resolution request shares between the
// languages' rules (index/python and index/typescript each wrap it in a
// resolver of their own, with their methods): the files it parsed, the
// occurrences it read, the members it evaluated, its step and parse
// budgets. It holds the store's tree cache from NewResolver to Release,
// so it is used by one goroutine and must be released.
type Resolver struct {
	St    *index.Store
	Cache *Cache // the store's tree cache, held until release
	Read  func(rel string) ([]byte, error)
	Files map[string]*File              // this request's files; nil when unreadable
	Occ   map[string][]index.Occurrence // this request's occurrences read, by path and name
	Memo  map[string]Value              // module and class members evaluated from them
	// IndexOnly forbids parsing a module without descriptors (one whose
	// extraction ran out of budget): a references query judges thousands
	// of occurrences and must not parse a file for one of them.
	IndexOnly bool
	Steps     int
	Parsed    int    // bytes parsed by this request (ParseBytes)
	Gen       uint64 // this resolver's number (Cache.Cancel)
}

// NewResolver starts a resolution on st, whose files read returns as the
// caller sees them. It waits for the store's tree cache (one resolver at
// a time); the caller must call Release.
func NewResolver(st *index.Store, read func(rel string) ([]byte, error)) *Resolver {
	c := CacheOf(st)
	c.Lock()
	return &Resolver{St: st, Cache: c, Read: read, Files: map[string]*File{}, Gen: c.gen.Add(1)}
}

// Release gives the tree cache back; r's files are not to be used after.
func (r *Resolver) Release() { r.Cache.Unlock() }

// Step counts one unit of work and reports whether the limit allows it
// and the resolution is not cancelled.
func (r *Resolver) Step() bool {
	r.Steps++
	return r.Steps <= StepLimit && !r.Cancelled()
}

// Cancelled reports whether the resolution was cancelled (Cache.Cancel).
func (r *Resolver) Cancelled() bool { return r.Gen <= r.Cache.cancelled.Load() }

// SameNode reports whether a and b span the same bytes (nil is no node).
func SameNode(a, b *ts.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte()
}

// Value is what an expression evaluates to, as far as syntax tells: a
// module, a class, an instance of a class, or a declaration (Decl) whose
// value is not known.
type Value struct {
	Decl     Target
	OK       bool
	Module   string // rel path of a module
	Class    *Class // a class or (instance) an instance of it
	Instance bool
}

// Class is a class parsed (F and Node) or known from the index (Path and
// Pos, its name's position; the languages' idx.go).
type Class struct {
	F    *File
	Node *ts.Node // class_definition
	Path string
	Pos  extract.Pos
}

// Target is the declaration v names, ok false for none.
func (v Value) Target() (Target, bool) { return v.Decl, v.OK }

// NodeRange is n's range.
func NodeRange(n *ts.Node) extract.Range {
	s, e := n.StartPoint(), n.EndPoint()
	return extract.Range{Start: extract.Pos{Line: s.Row, Col: s.Column}, End: extract.Pos{Line: e.Row, Col: e.Column}}
}

// ModuleTarget is the target of a whole module file.
func ModuleTarget(rel string) Target {
	name := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	if name == "__init__" {
		name = path.Base(path.Dir(rel))
	}
	return Target{Path: rel, Name: name, Kind: extract.KindModule, Module: true}
}
