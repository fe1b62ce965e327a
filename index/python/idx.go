package index

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/parleyhq/parley/index/extract"
)

// Evaluation of the Python descriptors stored at index time
// (resolve_pydesc.go) against the index: module members, class members
// and the values of bindings come from the descriptors, facts and symbols
// of the files they lead to, so resolving an occurrence of another file
// parses nothing. Values are the resolver's pyValue; a class known from
// the index is a pyClass without a tree (path and pos set), whose members
// classMember finds here.

// pyIdxFile is what the index holds for one file: its descriptors, its
// facts parsed, its symbols. Entries are immutable once built and kept
// across requests in the store's cache (pyTreeCache.idx) while the file's
// content hash is unchanged: a references query for a common name reads
// hundreds of files, and decoding their records each time cost most of it.
type pyIdxFile struct {
	hash  uint64
	ops   []string
	stars []string            // !s facts: star-imported module paths
	vals  map[string]string   // !v facts: "L:C" -> value
	bases map[string][]string // !b facts: "L:C" -> base values
	syms  []extract.Symbol
}

// pyIdxCacheFiles bounds the files whose records the store keeps decoded
// (about the standard library's count of Python files).
const pyIdxCacheFiles = 4096

// idxFile returns p's records, nil when p is not an indexed Python file
// with descriptors (one whose extraction ran out of budget has none).
func (r *pyResolver) idxFile(p string) *pyIdxFile {
	if !isPyFile(p) {
		return nil
	}
	return loadIdx(r, p, &r.st.py.idx, newPyIdxFile)
}

// loadIdx returns p's decoded descriptor records from cache, where they
// stay while p's content hash is unchanged, or decodes them with build
// (the file's hash, descriptor table and symbols); nil when the index
// holds no descriptors for p. A file without occurrences (an empty
// __init__.py) has an empty table: nothing to describe, nothing bound.
// Shared by Python's and TypeScript's records.
func loadIdx[T interface{ contentHash() uint64 }](r *pyResolver, p string, cache *map[string]T,
	build func(hash uint64, ops []string, syms []extract.Symbol) T) T {
	var none T
	h, ok := r.st.Header(p)
	if !ok {
		return none
	}
	if x, ok := (*cache)[p]; ok && x.contentHash() == h.Hash {
		return x
	}
	var x T
	switch det, err := r.st.Detail(p); {
	case h.Refs == 0 && h.Status == StatusIndexed:
		x = build(h.Hash, nil, nil)
	case err == nil && len(det.Operands) > 0:
		syms, _ := r.st.Symbols(p)
		x = build(h.Hash, det.Operands, syms)
	default:
		return none
	}
	if *cache == nil || len(*cache) >= pyIdxCacheFiles {
		*cache = map[string]T{}
	}
	(*cache)[p] = x
	return x
}

func (x *pyIdxFile) contentHash() uint64 { return x.hash }

// newPyIdxFile parses the facts of a file's descriptor table.
func newPyIdxFile(hash uint64, ops []string, syms []extract.Symbol) *pyIdxFile {
	x := &pyIdxFile{hash: hash, ops: ops, syms: syms, vals: map[string]string{}, bases: map[string][]string{}}
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
func (r *pyResolver) symbols(_ string, x *pyIdxFile) []extract.Symbol { return x.syms }

// occurrences returns name's occurrences in p with their descriptors.
func (r *pyResolver) occurrences(p string, _ *pyIdxFile, name string) []Occurrence {
	key := p + "\x00" + name
	o, ok := r.occ[key]
	if !ok {
		o, _ = r.st.FileReferences(p, name)
		if r.occ == nil {
			r.occ = map[string][]Occurrence{}
		}
		r.occ[key] = o
	}
	return o
}

// desc is the descriptor of an occurrence, "" for none.
func (x *pyIdxFile) desc(o Occurrence) string {
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
func (r *pyResolver) evalDesc(p, desc, name string) pyValue {
	desc = strings.TrimPrefix(desc, "=")
	global := strings.HasPrefix(desc, "g")
	desc = strings.TrimPrefix(desc, "g")
	if desc == "" || !r.step() {
		return pyValue{}
	}
	// The head ends at the first step.
	end := strings.IndexAny(desc, ".(")
	if end < 0 {
		end = len(desc)
	}
	head, steps := desc[:end], desc[end:]
	if head == "" {
		return pyValue{} // "." an attribute of an unknown value
	}
	if steps != "" {
		name = ""
	}
	var v pyValue
	switch head[0] {
	case '@':
		pos, ok := pyParsePos(head[1:])
		if !ok {
			return pyValue{}
		}
		v = r.idxBinding(p, pos, name)
		// A name resolved in a function's scope to a binding the index
		// keeps no symbol for (a parameter, a local variable): only its
		// own file can refer to it.
		v.decl.Local = steps == "" && !global && v.decl.Kind == extract.KindVariable && !r.hasSymbolAt(p, pos)
	case 'm':
		v = r.idxModule(p, strings.ReplaceAll(head[1:], "/", "."))
	case 'n':
		mod, member, ok := strings.Cut(head[1:], ":")
		if !ok {
			return pyValue{}
		}
		if m := r.idxModule(p, strings.ReplaceAll(mod, "/", ".")); m.module != "" {
			v = r.moduleMember(m.module, member)
		}
	case '*':
		if head != "*" {
			name = head[1:] // "*NAME"; "g*" is the occurrence's own name
		}
		v = r.idxStar(p, name)
	default:
		return pyValue{}
	}
	for steps != "" && v.ok {
		if strings.HasPrefix(steps, "()") {
			steps = steps[2:]
			if v.class == nil || v.instance {
				return pyValue{}
			}
			v = pyValue{class: v.class, instance: true, ok: true, decl: v.decl}
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

// pyParsePos parses "L:C".
func pyParsePos(s string) (extract.Pos, bool) {
	l, c, ok := strings.Cut(s, ":")
	line, err1 := strconv.ParseUint(l, 10, 32)
	col, err2 := strconv.ParseUint(c, 10, 32)
	return extract.Pos{Line: uint32(line), Col: uint32(col)}, ok && err1 == nil && err2 == nil
}

func pyPosKey(p extract.Pos) string {
	return strconv.FormatUint(uint64(p.Line), 10) + ":" + strconv.FormatUint(uint64(p.Col), 10)
}

// idxModule is the module an import path names from file p: relative
// paths through p's packages, absolute ones as moduleValue finds them.
func (r *pyResolver) idxModule(p, dotted string) pyValue {
	if !strings.HasPrefix(dotted, ".") {
		return r.moduleValue(p, dotted)
	}
	if m := r.importModule(p, dotted); m != "" {
		return pyValue{decl: moduleTarget(m), ok: true, module: m}
	}
	return pyValue{}
}

// idxBinding is the binding at pos of p, named name when its symbol
// does not tell: a class, or a declaration whose value its !v fact gives.
func (r *pyResolver) idxBinding(p string, pos extract.Pos, name string) pyValue {
	x := r.idxFile(p)
	if x == nil {
		return pyValue{}
	}
	t := PyTarget{Path: p, Name: name, Kind: extract.KindVariable,
		Selection: extract.Range{Start: pos, End: extract.Pos{Line: pos.Line, Col: pos.Col + uint32(len(name))}}}
	syms := r.symbols(p, x)
	for i := range syms {
		s := &syms[i]
		if s.Selection.Start != pos {
			continue
		}
		t.Name, t.Kind, t.Container, t.Selection = s.Name, s.Kind, s.Container, s.Selection
		if s.Kind == extract.KindClass {
			return pyValue{decl: t, ok: true, class: &pyClass{path: p, pos: pos}}
		}
		break
	}
	v := pyValue{decl: t, ok: true}
	if val, ok := x.vals[pyPosKey(pos)]; ok {
		vv := r.evalDesc(p, val, "")
		v.module, v.class, v.instance = vv.module, vv.class, vv.instance
	}
	return v
}

// hasSymbolAt reports whether p has a symbol named at pos.
func (r *pyResolver) hasSymbolAt(p string, pos extract.Pos) bool {
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
func (r *pyResolver) idxStar(p, name string) pyValue {
	x := r.idxFile(p)
	if x == nil {
		return pyValue{}
	}
	for _, s := range x.stars {
		if m := r.idxModule(p, strings.ReplaceAll(s, "/", ".")); m.module != "" {
			if v := r.moduleMember(m.module, name); v.ok {
				return v
			}
		}
	}
	return pyValue{}
}

// idxModuleMember is name in module file mod from the index: the
// descriptor of any of its module-level occurrences, its star imports,
// a submodule. ok is false when mod has no descriptors.
func (r *pyResolver) idxModuleMember(mod, name string) (v pyValue, ok bool) {
	x := r.idxFile(mod)
	if x == nil {
		return pyValue{}, false
	}
	key := mod + "\x00" + name
	if v, ok := r.memo[key]; ok {
		return v, true
	}
	v = r.idxModuleMemberOf(mod, x, name)
	r.remember(key, v)
	return v, true
}

// remember keeps a member's value for the rest of the request: a
// references query evaluates the same few module and class members for
// thousands of occurrences.
func (r *pyResolver) remember(key string, v pyValue) {
	if r.memo == nil {
		r.memo = map[string]pyValue{}
	}
	r.memo[key] = v
}

func (r *pyResolver) idxModuleMemberOf(mod string, x *pyIdxFile, name string) pyValue {
	for _, o := range r.occurrences(mod, x, name) {
		if d := x.desc(o); strings.HasPrefix(d, "g") && d != "g*" {
			return r.evalDesc(mod, d, name)
		}
	}
	if v := r.idxStar(mod, name); v.ok {
		return v
	}
	if base := mod[strings.LastIndexByte(mod, '/')+1:]; base == "__init__.py" || base == "__init__.pyi" {
		if sub := r.moduleFile(strings.TrimSuffix(mod, base) + name); sub != "" {
			return pyValue{decl: moduleTarget(sub), ok: true, module: sub}
		}
	}
	return pyValue{}
}

// idxClassMember is name in the class c known from the index: its body's
// symbols, then attributes its methods assign on self, then its bases.
func (r *pyResolver) idxClassMember(c *pyClass, name string) pyValue {
	x := r.idxFile(c.path)
	if x == nil || !r.step() {
		return pyValue{}
	}
	key := c.path + "\x00" + pyPosKey(c.pos) + "\x00" + name
	if v, ok := r.memo[key]; ok {
		return v
	}
	v := r.idxClassMemberOf(c, x, name)
	r.remember(key, v)
	return v
}

func (r *pyResolver) idxClassMemberOf(c *pyClass, x *pyIdxFile, name string) pyValue {
	syms := r.symbols(c.path, x)
	class := -1
	for i := range syms {
		if syms[i].Kind == extract.KindClass && syms[i].Selection.Start == c.pos {
			class = i
			break
		}
	}
	if class < 0 {
		return pyValue{}
	}
	for i := class + 1; i < len(syms); i++ {
		if int(syms[i].Parent) == class && syms[i].Name == name {
			return r.idxBinding(c.path, syms[i].Selection.Start, name)
		}
	}
	key := pyPosKey(c.pos)
	self := "=@" + key + "()." + name
	for _, o := range r.occurrences(c.path, x, name) {
		if x.desc(o) == self {
			t := PyTarget{Path: c.path, Name: name, Kind: extract.KindField, Container: syms[class].Name,
				Selection: extract.Range{Start: o.Pos, End: extract.Pos{Line: o.Pos.Line, Col: o.Pos.Col + uint32(len(name))}}}
			return pyValue{decl: t, ok: true}
		}
	}
	for _, b := range x.bases[key] {
		if bv := r.evalDesc(c.path, b, ""); bv.class != nil && !bv.instance {
			if v := r.classMember(bv.class, name); v.ok {
				return v
			}
		}
	}
	return pyValue{}
}

// pyIndexedDefinition answers PyDefinitions from the descriptor of the
// occurrence at off when src is the content the index holds for from:
// nothing is parsed, not even the buffer. answered is false when the
// index cannot say (the buffer was edited since, or off is no stored
// occurrence); the caller then parses.
func (s *Store) pyIndexedDefinition(from string, src []byte, off int, read SourceReader) (t PyTarget, ok, answered bool) {
	name, pos, ok := s.indexedOccurrence(from, src, off)
	if !ok {
		return PyTarget{}, false, false
	}
	r := newPyResolver(s, read)
	defer r.release()
	x := r.idxFile(from)
	if x == nil {
		return PyTarget{}, false, false
	}
	for _, o := range r.occurrences(from, x, name) {
		if o.Pos != pos {
			continue
		}
		d := x.desc(o)
		if d == "" {
			return PyTarget{}, false, true
		}
		t, ok = r.evalDesc(from, d, name).target()
		return t, ok, true
	}
	return PyTarget{}, false, false
}

// indexedContent reports whether src is the content the index holds for
// the file from: its stored descriptors then describe src.
func (s *Store) indexedContent(from string, src []byte) bool {
	h, known := s.Header(from)
	return known && h.Hash == xxhash.Sum64(src)
}

// indexedOccurrence is the identifier at off of src, the content the
// index holds for from, and its position as the index stores
// occurrences; ok is false when src is not that content or off is on no
// identifier.
func (s *Store) indexedOccurrence(from string, src []byte, off int) (name string, pos extract.Pos, ok bool) {
	if !s.indexedContent(from, src) {
		return "", extract.Pos{}, false
	}
	start := IdentStart(src, off)
	name, ok = IdentAt(src, start)
	if !ok {
		return "", extract.Pos{}, false
	}
	line := bytes.Count(src[:start], []byte{'\n'})
	pos = extract.Pos{Line: uint32(line), Col: uint32(start - (bytes.LastIndexByte(src[:start], '\n') + 1))}
	return name, pos, true
}
