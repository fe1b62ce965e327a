package python

import (
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// Evaluation of the Python descriptors stored at index time
// (describe.go) against the index: module members, class members
// and the values of bindings come from the descriptors, facts and symbols
// of the files they lead to, so resolving an occurrence of another file
// parses nothing. Values are the resolver's syntax.Value; a class known from
// the index is a syntax.Class without a tree (path and pos set), whose members
// classMember finds here.

// pyIdxFile is what the index holds for one file: its descriptors, its
// facts parsed, its symbols. Entries are immutable once built and kept
// across requests in the store's cache (syntax.Cache.idx) while the file's
// content hash is unchanged: a references query for a common name reads
// hundreds of files, and decoding their records each time cost most of it.
type idxRecords struct {
	hash  uint64
	ops   []string
	stars []string            // !s facts: star-imported module paths
	vals  map[string]string   // !v facts: "L:C" -> value
	bases map[string][]string // !b facts: "L:C" -> base values
	syms  []extract.Symbol
}

// idxFile returns p's records, nil when p is not an indexed Python file
// with descriptors (one whose extraction ran out of budget has none).
func (r *resolver) idxFile(p string) *idxRecords {
	if !IsFile(p) {
		return nil
	}
	return syntax.LoadIdx(r.Resolver, p, syntax.IdxCache[*idxRecords](r.Cache, "python"), newIdxRecords)
}

// ContentHash is the content hash of the file x was decoded from.
func (x *idxRecords) ContentHash() uint64 { return x.hash }

// newIdxRecords parses the facts of a file's descriptor table.
func newIdxRecords(hash uint64, ops []string, syms []extract.Symbol) *idxRecords {
	x := &idxRecords{hash: hash, ops: ops, syms: syms, vals: map[string]string{}, bases: map[string][]string{}}
	for _, o := range ops {
		if len(o) < 3 || o[0] != '!' {
			continue
		}
		switch o[1] {
		case 's':
			x.stars = append(x.stars, o[2:])
		case 'v', 'b':
			k, v, ok := strings.Cut(o[3:], "=")
			if !ok {
				continue
			}
			if o[1] == 'v' {
				x.vals[k] = v
			} else {
				x.bases[k] = strings.Split(v, " ")
			}
		}
	}
	return x
}

// symbols returns p's symbols (x is p's idxFile).
func (r *resolver) symbols(_ string, x *idxRecords) []extract.Symbol { return x.syms }

// occurrences returns name's occurrences in p with their descriptors.
func (r *resolver) occurrences(p string, _ *idxRecords, name string) []index.Occurrence {
	key := p + "\x00" + name
	o, ok := r.Occ[key]
	if !ok {
		o, _ = r.St.FileReferences(p, name)
		if r.Occ == nil {
			r.Occ = map[string][]index.Occurrence{}
		}
		r.Occ[key] = o
	}
	return o
}

// desc is the descriptor of an occurrence, "" for none.
func (x *idxRecords) desc(o index.Occurrence) string {
	if o.Operand == 0 || int(o.Operand) > len(x.ops) {
		return ""
	}
	return x.ops[o.Operand-1]
}

// pyAttrDesc reports whether desc is an attribute's (x.name): bare names'
// heads spell modules with '/', never '.'.
func pyAttrDesc(desc string) bool { return strings.Contains(desc, ".") || strings.HasPrefix(desc, "=") }

// evalDesc evaluates descriptor desc of file p; name is the occurrence's,
// the name of a bare binding head.
func (r *resolver) evalDesc(p, desc, name string) syntax.Value {
	desc = strings.TrimPrefix(desc, "=")
	global := strings.HasPrefix(desc, "g")
	desc = strings.TrimPrefix(desc, "g")
	if desc == "" || !r.Step() {
		return syntax.Value{}
	}
	// The head ends at the first step.
	end := strings.IndexAny(desc, ".(")
	if end < 0 {
		end = len(desc)
	}
	head, steps := desc[:end], desc[end:]
	if head == "" {
		return syntax.Value{} // "." an attribute of an unknown value
	}
	if steps != "" {
		name = ""
	}
	var v syntax.Value
	switch head[0] {
	case '@':
		pos, ok := syntax.ParsePos(head[1:])
		if !ok {
			return syntax.Value{}
		}
		v = r.idxBinding(p, pos, name)
		// A name resolved in a function's scope to a binding the index
		// keeps no symbol for (a parameter, a local variable): only its
		// own file can refer to it.
		v.Decl.Local = steps == "" && !global && v.Decl.Kind == extract.KindVariable && !r.hasSymbolAt(p, pos)
	case 'm':
		v = r.idxModule(p, strings.ReplaceAll(head[1:], "/", "."))
	case 'n':
		mod, member, ok := strings.Cut(head[1:], ":")
		if !ok {
			return syntax.Value{}
		}
		if m := r.idxModule(p, strings.ReplaceAll(mod, "/", ".")); m.Module != "" {
			v = r.moduleMember(m.Module, member)
		}
	case '*':
		if head != "*" {
			name = head[1:] // "*NAME"; "g*" is the occurrence's own name
		}
		v = r.idxStar(p, name)
	default:
		return syntax.Value{}
	}
	for steps != "" && v.OK {
		if strings.HasPrefix(steps, "()") {
			steps = steps[2:]
			if v.Class == nil || v.Instance {
				return syntax.Value{}
			}
			v = syntax.Value{Class: v.Class, Instance: true, OK: true, Decl: v.Decl}
			continue
		}
		steps = steps[1:] // "."
		i := strings.IndexAny(steps, ".(")
		if i < 0 {
			i = len(steps)
		}
		v = r.member(v, steps[:i])
		steps = steps[i:]
	}
	return v
}

// idxModule is the module an import path names from file p: relative
// paths through p's packages, absolute ones as moduleValue finds them.
func (r *resolver) idxModule(p, dotted string) syntax.Value {
	if !strings.HasPrefix(dotted, ".") {
		return r.moduleValue(p, dotted)
	}
	if m := r.importModule(p, dotted); m != "" {
		return syntax.Value{Decl: syntax.ModuleTarget(m), OK: true, Module: m}
	}
	return syntax.Value{}
}

// idxBinding is the binding at pos of p, named name when its symbol
// does not tell: a class, or a declaration whose value its !v fact gives.
func (r *resolver) idxBinding(p string, pos extract.Pos, name string) syntax.Value {
	x := r.idxFile(p)
	if x == nil {
		return syntax.Value{}
	}
	t := syntax.Target{Path: p, Name: name, Kind: extract.KindVariable,
		Selection: extract.Range{Start: pos, End: extract.Pos{Line: pos.Line, Col: pos.Col + uint32(len(name))}}}
	syms := r.symbols(p, x)
	for i := range syms {
		s := &syms[i]
		if s.Selection.Start != pos {
			continue
		}
		t.Name, t.Kind, t.Container, t.Selection = s.Name, s.Kind, s.Container, s.Selection
		if s.Kind == extract.KindClass {
			return syntax.Value{Decl: t, OK: true, Class: &syntax.Class{Path: p, Pos: pos}}
		}
		break
	}
	v := syntax.Value{Decl: t, OK: true}
	if val, ok := x.vals[syntax.PosKey(pos)]; ok {
		vv := r.evalDesc(p, val, "")
		v.Module, v.Class, v.Instance = vv.Module, vv.Class, vv.Instance
	}
	return v
}

// hasSymbolAt reports whether p has a symbol named at pos.
func (r *resolver) hasSymbolAt(p string, pos extract.Pos) bool {
	if x := r.idxFile(p); x != nil {
		for i := range x.syms {
			if x.syms[i].Selection.Start == pos {
				return true
			}
		}
	}
	return false
}

// idxStar is name from the star imports of p, in order.
func (r *resolver) idxStar(p, name string) syntax.Value {
	x := r.idxFile(p)
	if x == nil {
		return syntax.Value{}
	}
	for _, s := range x.stars {
		if m := r.idxModule(p, strings.ReplaceAll(s, "/", ".")); m.Module != "" {
			if v := r.moduleMember(m.Module, name); v.OK {
				return v
			}
		}
	}
	return syntax.Value{}
}

// idxModuleMember is name in module file mod from the index: the
// descriptor of any of its module-level occurrences, its star imports,
// a submodule. ok is false when mod has no descriptors.
func (r *resolver) idxModuleMember(mod, name string) (v syntax.Value, ok bool) {
	x := r.idxFile(mod)
	if x == nil {
		return syntax.Value{}, false
	}
	key := mod + "\x00" + name
	if v, ok := r.Memo[key]; ok {
		return v, true
	}
	v = r.idxModuleMemberOf(mod, x, name)
	r.Remember(key, v)
	return v, true
}

func (r *resolver) idxModuleMemberOf(mod string, x *idxRecords, name string) syntax.Value {
	for _, o := range r.occurrences(mod, x, name) {
		if d := x.desc(o); strings.HasPrefix(d, "g") && d != "g*" {
			return r.evalDesc(mod, d, name)
		}
	}
	if v := r.idxStar(mod, name); v.OK {
		return v
	}
	if base := mod[strings.LastIndexByte(mod, '/')+1:]; base == "__init__.py" || base == "__init__.pyi" {
		if sub := r.moduleFile(strings.TrimSuffix(mod, base) + name); sub != "" {
			return syntax.Value{Decl: syntax.ModuleTarget(sub), OK: true, Module: sub}
		}
	}
	return syntax.Value{}
}

// idxClassMember is name in the class c known from the index: its body's
// symbols, then attributes its methods assign on self, then its bases.
func (r *resolver) idxClassMember(c *syntax.Class, name string) syntax.Value {
	x := r.idxFile(c.Path)
	if x == nil || !r.Step() {
		return syntax.Value{}
	}
	key := c.Path + "\x00" + syntax.PosKey(c.Pos) + "\x00" + name
	if v, ok := r.Memo[key]; ok {
		return v
	}
	v := r.idxClassMemberOf(c, x, name)
	r.Remember(key, v)
	return v
}

func (r *resolver) idxClassMemberOf(c *syntax.Class, x *idxRecords, name string) syntax.Value {
	syms := r.symbols(c.Path, x)
	class := -1
	for i := range syms {
		if syms[i].Kind == extract.KindClass && syms[i].Selection.Start == c.Pos {
			class = i
			break
		}
	}
	if class < 0 {
		return syntax.Value{}
	}
	for i := class + 1; i < len(syms); i++ {
		if int(syms[i].Parent) == class && syms[i].Name == name {
			return r.idxBinding(c.Path, syms[i].Selection.Start, name)
		}
	}
	key := syntax.PosKey(c.Pos)
	self := "=@" + key + "()." + name
	for _, o := range r.occurrences(c.Path, x, name) {
		if x.desc(o) == self {
			t := syntax.Target{Path: c.Path, Name: name, Kind: extract.KindField, Container: syms[class].Name,
				Selection: extract.Range{Start: o.Pos, End: extract.Pos{Line: o.Pos.Line, Col: o.Pos.Col + uint32(len(name))}}}
			return syntax.Value{Decl: t, OK: true}
		}
	}
	for _, b := range x.bases[key] {
		if bv := r.evalDesc(c.Path, b, ""); bv.Class != nil && !bv.Instance {
			if v := r.classMember(bv.Class, name); v.OK {
				return v
			}
		}
	}
	return syntax.Value{}
}

// pyIndexedDefinition answers Definitions from the descriptor of the
// occurrence at off when src is the content the index holds for from:
// nothing is parsed, not even the buffer. answered is false when the
// index cannot say (the buffer was edited since, or off is no stored
// occurrence); the caller then parses.
func pyIndexedDefinition(s *index.Store, from string, src []byte, off int, read syntax.SourceReader) (t syntax.Target, ok, answered bool) {
	name, pos, ok := syntax.IndexedOccurrence(s, from, src, off)
	if !ok {
		return syntax.Target{}, false, false
	}
	r := newResolver(s, read)
	defer r.Release()
	x := r.idxFile(from)
	if x == nil {
		return syntax.Target{}, false, false
	}
	for _, o := range r.occurrences(from, x, name) {
		if o.Pos != pos {
			continue
		}
		d := x.desc(o)
		if d == "" {
			return syntax.Target{}, false, true
		}
		t, ok = r.evalDesc(from, d, name).Target()
		return t, ok, true
	}
	return syntax.Target{}, false, false
}
