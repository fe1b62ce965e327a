package index

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// Evaluation of the TypeScript and JavaScript descriptors stored at index
// time (resolve_tsdesc.go) against the index, as resolve_pyidx.go does
// Python's: module exports, class members and their heritage, binding
// values, return types and callback parameters come from the facts and
// symbols of the files a descriptor leads to, so resolving an occurrence
// parses nothing. A class known from the index is a pyClass without a
// tree (path and pos, its name's position).

// tsIdxFile is what the index holds for one TypeScript file: its
// descriptors, its facts parsed, its symbols. Entries are immutable once
// built and kept across requests in the store's cache (pyTreeCache.tsIdx)
// while the file's content hash is unchanged.
type tsIdxFile struct {
	hash    uint64
	ops     []string
	vals    map[string]string            // !v: "L:C" -> value
	rets    map[string]string            // !r: "L:C" -> value
	cbs     map[string]string            // !c: "L:C/A/I" -> value
	classes map[string][]string          // !b: "L:C" -> supers
	members map[string]map[string]string // !m: class "L:C" -> name -> "L:C"
	exports map[string]string            // !e: name -> value
	stars   []string                     // !s: specifiers
	globals map[string]bool              // !g: module-level bindings without a symbol
	syms    []extract.Symbol
}

// tsIdxFile returns p's records, nil when p is not an indexed TypeScript
// or JavaScript file with descriptors.
func (r *pyResolver) tsIdxFile(p string) *tsIdxFile {
	if !isTSFile(p) {
		return nil
	}
	return loadIdx(r, p, &r.st.py.tsIdx, newTSIdxFile)
}

func (x *tsIdxFile) contentHash() uint64 { return x.hash }

// newTSIdxFile parses the facts of a file's descriptor table.
func newTSIdxFile(hash uint64, ops []string, syms []extract.Symbol) *tsIdxFile {
	x := &tsIdxFile{hash: hash, ops: ops, syms: syms, vals: map[string]string{}, rets: map[string]string{}, cbs: map[string]string{},
		classes: map[string][]string{}, members: map[string]map[string]string{}, exports: map[string]string{},
		globals: map[string]bool{}}
	for _, o := range ops {
		if len(o) < 3 || o[0] != '!' {
			continue
		}
		switch o[1] {
		case 's':
			x.stars = append(x.stars, o[2:])
			continue
		case 'g':
			x.globals[strings.TrimPrefix(o[2:], "@")] = true
			continue
		}
		k, v, ok := strings.Cut(o[2:], "=")
		if !ok {
			continue
		}
		switch o[1] {
		case 'e':
			x.exports[k] = v
		case 'v', 'r', 'c', 'b', 'm':
			k = strings.TrimPrefix(k, "@")
		}
		switch o[1] {
		case 'v':
			x.vals[k] = v
		case 'r':
			x.rets[k] = v
		case 'c':
			x.cbs[k] = v
		case 'b':
			x.classes[k] = strings.Fields(v)
		case 'm':
			name, pos, ok := strings.Cut(v, "@")
			if !ok {
				continue
			}
			if x.members[k] == nil {
				x.members[k] = map[string]string{}
			}
			x.members[k][name] = pos
		}
	}
	return x
}

// desc is the descriptor of an occurrence, "" for none.
func (x *tsIdxFile) desc(operand uint32) string {
	if operand == 0 || int(operand) > len(x.ops) {
		return ""
	}
	return x.ops[operand-1]
}

// tsStepEnd is the end of the member name starting steps[i:] (a '#' first
// is a private name's).
func tsStepEnd(steps string, i int) int {
	j := i
	if j < len(steps) && steps[j] == '#' {
		j++
	}
	for j < len(steps) && !strings.ContainsRune(".(#~", rune(steps[j])) {
		j++
	}
	return j
}

// tsEvalDesc evaluates descriptor desc of file p; name is the
// occurrence's, the name of a bare binding head.
func (r *pyResolver) tsEvalDesc(p, desc, name string) pyValue {
	desc = strings.TrimPrefix(desc, ".") // a property access
	if desc == "" || !r.step() {
		return pyValue{}
	}
	var v pyValue
	var steps string
	switch desc[0] {
	case '@':
		end := tsStepEnd(desc, 1)
		pos, ok := pyParsePos(desc[1:end])
		if !ok {
			return pyValue{}
		}
		if steps = desc[end:]; steps != "" {
			name = ""
		}
		v = r.tsIdxBinding(p, pos, name)
	case 'm':
		spec, rest, ok := strings.Cut(desc[1:], "|")
		if !ok {
			return pyValue{}
		}
		mod := r.tsModuleFile(p, spec)
		if mod == "" {
			return pyValue{}
		}
		v, steps = pyValue{decl: moduleTarget(mod), ok: true, module: mod}, rest
	default:
		return pyValue{}
	}
	for steps != "" && v.ok {
		switch steps[0] {
		case '.':
			end := tsStepEnd(steps, 1)
			v, steps = r.tsIdxMember(v, steps[1:end]), steps[end:]
		case '(':
			v, steps = r.tsIdxFact(v, "r", ""), strings.TrimPrefix(steps, "()")
		case '#':
			if v.class == nil || v.instance {
				return pyValue{}
			}
			v, steps = pyValue{class: v.class, instance: true, ok: true, decl: v.decl}, steps[1:]
		case '~':
			end := tsStepEnd(steps, 1)
			v, steps = r.tsIdxFact(v, "c", "/"+steps[1:end]), steps[end:]
		default:
			return pyValue{}
		}
	}
	return v
}

// tsIdxBinding is the binding at pos of p, named name when its symbol does
// not tell: a class, or a declaration whose value its !v fact gives.
func (r *pyResolver) tsIdxBinding(p string, pos extract.Pos, name string) pyValue {
	x := r.tsIdxFile(p)
	if x == nil {
		return pyValue{}
	}
	key := pyPosKey(pos)
	memo := "b" + p + "\x00" + key
	if v, ok := r.memo[memo]; ok {
		if v.decl.Name == "" && name != "" { // first evaluated as a value
			v.decl.Name = name
			v.decl.Selection.End.Col = pos.Col + uint32(len(name))
		}
		return v
	}
	t := PyTarget{Path: p, Name: name, Kind: extract.KindVariable, Local: !x.globals[key],
		Selection: extract.Range{Start: pos, End: extract.Pos{Line: pos.Line, Col: pos.Col + uint32(len(name))}}}
	for i := range x.syms {
		if s := &x.syms[i]; s.Selection.Start == pos {
			t.Name, t.Kind, t.Container, t.Selection, t.Local = s.Name, s.Kind, s.Container, s.Selection, false
			break
		}
	}
	v := pyValue{decl: t, ok: true}
	if val, ok := x.vals[key]; ok {
		vv := r.tsEvalDesc(p, val, "")
		v.module, v.class, v.instance = vv.module, vv.class, vv.instance
	} else if _, ok := x.classes[key]; ok {
		v.class = &pyClass{path: p, pos: pos}
	}
	if v.class == nil {
		v.instance = false
	}
	r.remember(memo, v)
	return v
}

// tsIdxMember is property name of v.
func (r *pyResolver) tsIdxMember(v pyValue, name string) pyValue {
	switch {
	case v.module != "":
		return r.tsIdxExport(v.module, name, 0)
	case v.class != nil:
		return r.tsIdxClassMember(v.class, name, 0)
	}
	return pyValue{}
}

// tsIdxFact evaluates the fact of kind "r" (what calling v returns) or
// "c" (the type of a callback parameter, suffix "/A/I") of the
// declaration v is.
func (r *pyResolver) tsIdxFact(v pyValue, kind, suffix string) pyValue {
	if v.decl.Module || v.decl.Path == "" {
		return pyValue{}
	}
	x := r.tsIdxFile(v.decl.Path)
	if x == nil {
		return pyValue{}
	}
	facts := x.rets
	if kind == "c" {
		facts = x.cbs
	}
	d, ok := facts[pyPosKey(v.decl.Selection.Start)+suffix]
	if !ok {
		return pyValue{}
	}
	return r.tsEvalDesc(v.decl.Path, d, "")
}

// tsIdxExport is the declaration module file mod exports as name: its
// !e fact, else through its export-star modules, in order.
func (r *pyResolver) tsIdxExport(mod, name string, depth int) pyValue {
	memo := "e" + mod + "\x00" + name
	if v, ok := r.memo[memo]; ok {
		return v
	}
	x := r.tsIdxFile(mod)
	if x == nil || depth > pyStepLimit {
		return pyValue{}
	}
	r.remember(memo, pyValue{}) // export * cycles
	var v pyValue
	if d, ok := x.exports[name]; ok {
		v = r.tsEvalDesc(mod, d, name)
	} else {
		for _, s := range x.stars {
			if m := r.tsModuleFile(mod, s); m != "" {
				if v = r.tsIdxExport(m, name, depth+1); v.ok {
					break
				}
			}
		}
	}
	r.remember(memo, v)
	return v
}

// tsIdxClassMember is name declared in the class or interface c: its
// body's symbols, its constructor's parameter properties, then what it
// extends and implements, depth first (tsClassMember of the resolver).
func (r *pyResolver) tsIdxClassMember(c *pyClass, name string, depth int) pyValue {
	memo := "m" + c.path + "\x00" + pyPosKey(c.pos) + "\x00" + name
	if v, ok := r.memo[memo]; ok {
		return v
	}
	x := r.tsIdxFile(c.path)
	if x == nil || depth > 16 {
		return pyValue{}
	}
	r.remember(memo, pyValue{}) // heritage cycles
	v := r.tsIdxClassMemberOf(c, x, name, depth)
	r.remember(memo, v)
	return v
}

func (r *pyResolver) tsIdxClassMemberOf(c *pyClass, x *tsIdxFile, name string, depth int) pyValue {
	key := pyPosKey(c.pos)
	if class := x.symbolAt(c.pos); class >= 0 {
		for i := class + 1; i < len(x.syms); i++ {
			if int(x.syms[i].Parent) == class && x.syms[i].Name == name {
				return r.tsIdxBinding(c.path, x.syms[i].Selection.Start, name)
			}
		}
	}
	if pos, ok := x.members[key][name]; ok {
		if at, ok := pyParsePos(pos); ok {
			v := r.tsIdxBinding(c.path, at, name)
			v.decl.Kind, v.decl.Local = extract.KindField, false
			return v
		}
	}
	for _, s := range x.classes[key] {
		if sv := r.tsEvalDesc(c.path, s, ""); sv.class != nil && !sv.instance {
			if v := r.tsIdxClassMember(sv.class, name, depth+1); v.ok {
				return v
			}
		}
	}
	return pyValue{}
}

// memberClass is the position key of the class declaring t as a member:
// the parent of t's symbol, or the class whose member facts name t (a
// constructor parameter property, a JavaScript this.x = assignment);
// false when t is no member of a class the file describes.
func (x *tsIdxFile) memberClass(t PyTarget) (string, bool) {
	if i := x.symbolAt(t.Selection.Start); i >= 0 {
		if x.syms[i].Parent < 0 {
			return "", false
		}
		ck := pyPosKey(x.syms[x.syms[i].Parent].Selection.Start)
		_, ok := x.classes[ck]
		return ck, ok
	}
	pos := pyPosKey(t.Selection.Start)
	for ck, members := range x.members {
		if members[t.Name] == pos {
			_, ok := x.classes[ck]
			return ck, ok
		}
	}
	return "", false
}

// symbolAt is the index of the symbol named at pos, or -1.
func (x *tsIdxFile) symbolAt(pos extract.Pos) int {
	for i := range x.syms {
		if x.syms[i].Selection.Start == pos {
			return i
		}
	}
	return -1
}

// tsIdxCanonical is the declaration references to t count against
// (tsCanonical of the resolver): a member's topmost declaration up its
// class's heritage, an overload group's first signature.
func (r *pyResolver) tsIdxCanonical(t PyTarget) PyTarget {
	memo := "c" + t.Path + "\x00" + pyPosKey(t.Selection.Start)
	if v, ok := r.memo[memo]; ok {
		return v.decl
	}
	for range 16 {
		x := r.tsIdxFile(t.Path)
		if x == nil {
			break
		}
		ck, ok := x.memberClass(t)
		if !ok {
			break
		}
		var up *pyValue
		for _, s := range x.classes[ck] {
			if sv := r.tsEvalDesc(t.Path, s, ""); sv.class != nil && !sv.instance {
				if v := r.tsIdxClassMember(sv.class, t.Name, 0); v.ok {
					up = &v
					break
				}
			}
		}
		if up == nil || (up.decl.Path == t.Path && up.decl.Selection.Start == t.Selection.Start) {
			break
		}
		t = up.decl
	}
	if x := r.tsIdxFile(t.Path); x != nil {
		if i := x.symbolAt(t.Selection.Start); i >= 0 {
			t.Selection = x.overloadFirst(i).Selection
		}
	}
	r.remember(memo, pyValue{decl: t, ok: true})
	return t
}

// overloadFirst is the first symbol of the overload group of symbol i:
// a function or method declared again under the same parent.
func (x *tsIdxFile) overloadFirst(i int) extract.Symbol {
	s := x.syms[i]
	if s.Kind != extract.KindFunction && s.Kind != extract.KindMethod {
		return s
	}
	for j := range i {
		if o := x.syms[j]; o.Name == s.Name && o.Parent == s.Parent && o.Kind == s.Kind {
			return o
		}
	}
	return s
}

// tsIdxKnown reports whether the query-time resolver takes file p from
// the index rather than parsing it: p has descriptors and this request
// holds no tree of it (the buffer it resolves in, whose content the index
// may not hold yet, is parsed).
func (r *pyResolver) tsIdxKnown(p string) bool {
	if _, held := r.files[tsGrammar(p)+":"+p]; held {
		return false
	}
	return r.tsIdxFile(p) != nil
}
