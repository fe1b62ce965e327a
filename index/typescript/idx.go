package typescript

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// Evaluation of the TypeScript and JavaScript descriptors stored at index
// time (describe.go) against the index, as python/idx.go does
// Python's: module exports, class members and their heritage, binding
// values, return types and callback parameters come from the facts and
// symbols of the files a descriptor leads to, so resolving an occurrence
// parses nothing. A class known from the index is a syntax.Class without a
// tree (path and pos, its name's position).

// tsIdxFile is what the index holds for one TypeScript file: its
// descriptors, its facts parsed, its symbols. Entries are immutable once
// built and kept across requests in the store's cache (syntax.Cache.tsIdx)
// while the file's content hash is unchanged.
type idxRecords struct {
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
func (r *resolver) tsIdxFile(p string) *idxRecords {
	if !IsFile(p) {
		return nil
	}
	return syntax.LoadIdx(r.Resolver, p, syntax.IdxCache[*idxRecords](r.Cache, "typescript"), newIdxRecords)
}

// ContentHash is the content hash of the file x was decoded from.
func (x *idxRecords) ContentHash() uint64 { return x.hash }

// newIdxRecords parses the facts of a file's descriptor table.
func newIdxRecords(hash uint64, ops []string, syms []extract.Symbol) *idxRecords {
	x := &idxRecords{hash: hash, ops: ops, syms: syms, vals: map[string]string{}, rets: map[string]string{}, cbs: map[string]string{},
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
func (x *idxRecords) desc(operand uint32) string {
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
func (r *resolver) tsEvalDesc(p, desc, name string) syntax.Value {
	desc = strings.TrimPrefix(desc, ".") // a property access
	if desc == "" || !r.Step() {
		return syntax.Value{}
	}
	var v syntax.Value
	var steps string
	switch desc[0] {
	case '@':
		end := tsStepEnd(desc, 1)
		pos, ok := syntax.ParsePos(desc[1:end])
		if !ok {
			return syntax.Value{}
		}
		if steps = desc[end:]; steps != "" {
			name = ""
		}
		v = r.tsIdxBinding(p, pos, name)
	case 'm':
		spec, rest, ok := strings.Cut(desc[1:], "|")
		if !ok {
			return syntax.Value{}
		}
		mod := r.tsModuleFile(p, spec)
		if mod == "" {
			return syntax.Value{}
		}
		v, steps = syntax.Value{Decl: syntax.ModuleTarget(mod), OK: true, Module: mod}, rest
	default:
		return syntax.Value{}
	}
	for steps != "" && v.OK {
		switch steps[0] {
		case '.':
			end := tsStepEnd(steps, 1)
			v, steps = r.tsIdxMember(v, steps[1:end]), steps[end:]
		case '(':
			v, steps = r.tsIdxFact(v, "r", ""), strings.TrimPrefix(steps, "()")
		case '#':
			if v.Class == nil || v.Instance {
				return syntax.Value{}
			}
			v, steps = syntax.Value{Class: v.Class, Instance: true, OK: true, Decl: v.Decl}, steps[1:]
		case '~':
			end := tsStepEnd(steps, 1)
			v, steps = r.tsIdxFact(v, "c", "/"+steps[1:end]), steps[end:]
		default:
			return syntax.Value{}
		}
	}
	return v
}

// tsIdxBinding is the binding at pos of p, named name when its symbol does
// not tell: a class, or a declaration whose value its !v fact gives.
func (r *resolver) tsIdxBinding(p string, pos extract.Pos, name string) syntax.Value {
	x := r.tsIdxFile(p)
	if x == nil {
		return syntax.Value{}
	}
	key := syntax.PosKey(pos)
	memo := "b" + p + "\x00" + key
	if v, ok := r.Memo[memo]; ok {
		if v.Decl.Name == "" && name != "" { // first evaluated as a value
			v.Decl.Name = name
			v.Decl.Selection.End.Col = pos.Col + uint32(len(name))
		}
		return v
	}
	t := syntax.Target{Path: p, Name: name, Kind: extract.KindVariable, Local: !x.globals[key],
		Selection: extract.Range{Start: pos, End: extract.Pos{Line: pos.Line, Col: pos.Col + uint32(len(name))}}}
	for i := range x.syms {
		if s := &x.syms[i]; s.Selection.Start == pos {
			t.Name, t.Kind, t.Container, t.Selection, t.Local = s.Name, s.Kind, s.Container, s.Selection, false
			break
		}
	}
	v := syntax.Value{Decl: t, OK: true}
	if val, ok := x.vals[key]; ok {
		vv := r.tsEvalDesc(p, val, "")
		v.Module, v.Class, v.Instance = vv.Module, vv.Class, vv.Instance
	} else if _, ok := x.classes[key]; ok {
		v.Class = &syntax.Class{Path: p, Pos: pos}
	}
	if v.Class == nil {
		v.Instance = false
	}
	r.Remember(memo, v)
	return v
}

// tsIdxMember is property name of v.
func (r *resolver) tsIdxMember(v syntax.Value, name string) syntax.Value {
	switch {
	case v.Module != "":
		return r.tsIdxExport(v.Module, name, 0)
	case v.Class != nil:
		return r.tsIdxClassMember(v.Class, name, 0)
	}
	return syntax.Value{}
}

// tsIdxFact evaluates the fact of kind "r" (what calling v returns) or
// "c" (the type of a callback parameter, suffix "/A/I") of the
// declaration v is.
func (r *resolver) tsIdxFact(v syntax.Value, kind, suffix string) syntax.Value {
	if v.Decl.Module || v.Decl.Path == "" {
		return syntax.Value{}
	}
	x := r.tsIdxFile(v.Decl.Path)
	if x == nil {
		return syntax.Value{}
	}
	facts := x.rets
	if kind == "c" {
		facts = x.cbs
	}
	d, ok := facts[syntax.PosKey(v.Decl.Selection.Start)+suffix]
	if !ok {
		return syntax.Value{}
	}
	return r.tsEvalDesc(v.Decl.Path, d, "")
}

// tsIdxExport is the declaration module file mod exports as name: its
// !e fact, else through its export-star modules, in order.
func (r *resolver) tsIdxExport(mod, name string, depth int) syntax.Value {
	memo := "e" + mod + "\x00" + name
	if v, ok := r.Memo[memo]; ok {
		return v
	}
	x := r.tsIdxFile(mod)
	if x == nil || depth > syntax.StepLimit {
		return syntax.Value{}
	}
	r.Remember(memo, syntax.Value{}) // export * cycles
	var v syntax.Value
	if d, ok := x.exports[name]; ok {
		v = r.tsEvalDesc(mod, d, name)
	} else {
		for _, s := range x.stars {
			if m := r.tsModuleFile(mod, s); m != "" {
				if v = r.tsIdxExport(m, name, depth+1); v.OK {
					break
				}
			}
		}
	}
	r.Remember(memo, v)
	return v
}

// tsIdxClassMember is name declared in the class or interface c: its
// body's symbols, its constructor's parameter properties, then what it
// extends and implements, depth first (tsClassMember of the resolver).
func (r *resolver) tsIdxClassMember(c *syntax.Class, name string, depth int) syntax.Value {
	memo := "m" + c.Path + "\x00" + syntax.PosKey(c.Pos) + "\x00" + name
	if v, ok := r.Memo[memo]; ok {
		return v
	}
	x := r.tsIdxFile(c.Path)
	if x == nil || depth > 16 {
		return syntax.Value{}
	}
	r.Remember(memo, syntax.Value{}) // heritage cycles
	v := r.tsIdxClassMemberOf(c, x, name, depth)
	r.Remember(memo, v)
	return v
}

func (r *resolver) tsIdxClassMemberOf(c *syntax.Class, x *idxRecords, name string, depth int) syntax.Value {
	key := syntax.PosKey(c.Pos)
	if class := x.symbolAt(c.Pos); class >= 0 {
		for i := class + 1; i < len(x.syms); i++ {
			if int(x.syms[i].Parent) == class && x.syms[i].Name == name {
				return r.tsIdxBinding(c.Path, x.syms[i].Selection.Start, name)
			}
		}
	}
	if pos, ok := x.members[key][name]; ok {
		if at, ok := syntax.ParsePos(pos); ok {
			v := r.tsIdxBinding(c.Path, at, name)
			v.Decl.Kind, v.Decl.Local = extract.KindField, false
			return v
		}
	}
	for _, s := range x.classes[key] {
		if sv := r.tsEvalDesc(c.Path, s, ""); sv.Class != nil && !sv.Instance {
			if v := r.tsIdxClassMember(sv.Class, name, depth+1); v.OK {
				return v
			}
		}
	}
	return syntax.Value{}
}

// memberClass is the position key of the class declaring t as a member:
// the parent of t's symbol, or the class whose member facts name t (a
// constructor parameter property, a JavaScript this.x = assignment);
// false when t is no member of a class the file describes.
func (x *idxRecords) memberClass(t syntax.Target) (string, bool) {
	if i := x.symbolAt(t.Selection.Start); i >= 0 {
		if x.syms[i].Parent < 0 {
			return "", false
		}
		ck := syntax.PosKey(x.syms[x.syms[i].Parent].Selection.Start)
		_, ok := x.classes[ck]
		return ck, ok
	}
	pos := syntax.PosKey(t.Selection.Start)
	for ck, members := range x.members {
		if members[t.Name] == pos {
			_, ok := x.classes[ck]
			return ck, ok
		}
	}
	return "", false
}

// symbolAt is the index of the symbol named at pos, or -1.
func (x *idxRecords) symbolAt(pos extract.Pos) int {
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
func (r *resolver) tsIdxCanonical(t syntax.Target) syntax.Target {
	memo := "c" + t.Path + "\x00" + syntax.PosKey(t.Selection.Start)
	if v, ok := r.Memo[memo]; ok {
		return v.Decl
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
		var up *syntax.Value
		for _, s := range x.classes[ck] {
			if sv := r.tsEvalDesc(t.Path, s, ""); sv.Class != nil && !sv.Instance {
				if v := r.tsIdxClassMember(sv.Class, t.Name, 0); v.OK {
					up = &v
					break
				}
			}
		}
		if up == nil || (up.Decl.Path == t.Path && up.Decl.Selection.Start == t.Selection.Start) {
			break
		}
		t = up.Decl
	}
	if x := r.tsIdxFile(t.Path); x != nil {
		if i := x.symbolAt(t.Selection.Start); i >= 0 {
			t.Selection = x.overloadFirst(i).Selection
		}
	}
	r.Remember(memo, syntax.Value{Decl: t, OK: true})
	return t
}

// overloadFirst is the first symbol of the overload group of symbol i:
// a function or method declared again under the same parent.
func (x *idxRecords) overloadFirst(i int) extract.Symbol {
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
func (r *resolver) tsIdxKnown(p string) bool {
	if _, held := r.Files[Grammar(p)+":"+p]; held {
		return false
	}
	return r.tsIdxFile(p) != nil
}
