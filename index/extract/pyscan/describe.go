package pyscan

import (
	"sort"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// The Python resolution descriptors of index/python's describe.go
// (Describe), computed over the scanner's tree: the same rules in the
// same order, so that each occurrence's descriptor and the table's
// order (Result.Operands) are what the tree-sitter path writes. See
// describe.go there for the descriptor language.

const valueDepth = 8

type describer struct {
	t      *tree
	tab    *bindings
	idents []int32
	extract.Operands
	// Memos: a file names the same bindings over and over (self, module
	// imports), and each answer depends only on its key.
	bindOp  map[int32]uint32    // binding<<1|module-scope -> its "@L:C" operand
	pos     map[int32]string    // node -> "L:C"
	values  map[[2]int32]string // binding, depth -> bindingValue
	lookups map[bindKey][2]int32
}

func (d *describer) posString(n int32, w *walker) string {
	if s, ok := d.pos[n]; ok {
		return s
	}
	p := w.pos(d.t.nodes[n].start)
	s := strconv.FormatUint(uint64(p.Line), 10) + ":" + strconv.FormatUint(uint64(p.Col), 10)
	d.pos[n] = s
	return s
}

// lookup is tree.lookup, memoized by the scope the name is used in.
func (d *describer) lookup(n int32, name string) (b, scope int32) {
	k := bindKey{d.t.scopeOf(n), name}
	if r, ok := d.lookups[k]; ok {
		return r[0], r[1]
	}
	b, scope = d.t.lookup(n, name, d.tab)
	d.lookups[k] = [2]int32{b, scope}
	return b, scope
}

// describeFile fills res's descriptors (Describe).
func describeFile(t *tree, w *walker, res *extract.Result) {
	d := &describer{t: t, bindOp: map[int32]uint32{},
		pos: map[int32]string{}, values: map[[2]int32]string{}, lookups: map[bindKey][2]int32{}}
	d.tab = t.newBindings(func(n int32) { d.idents = append(d.idents, n) })
	added := d.allStrings(w, res)
	for i := range res.Refs {
		r := &res.Refs[i]
		if r.Operand != 0 || int(r.Pos.Line) >= len(w.lines) {
			continue
		}
		off := w.lines[r.Pos.Line] + r.Pos.Col
		k := sort.Search(len(d.idents), func(k int) bool { return t.nodes[d.idents[k]].start >= off })
		if k >= len(d.idents) || t.nodes[d.idents[k]].start != off {
			continue
		}
		r.Operand = d.operand(d.idents[k], w)
	}
	d.facts(w)
	if added {
		sort.SliceStable(res.Refs, func(i, j int) bool { return res.Refs[i].Pos.Less(res.Refs[j].Pos) })
	}
	res.Operands = d.Table
}

// operand is the interned descriptor of identifier id: describe's, with
// the common case, a bare name bound in this file, memoized.
func (d *describer) operand(id int32, w *walker) uint32 {
	desc, b, g := d.describe(id, w)
	if b < 0 {
		return d.Intern(desc)
	}
	key := b << 1
	if g {
		key |= 1
	}
	if op, ok := d.bindOp[key]; ok {
		return op
	}
	prefix := "@"
	if g {
		prefix = "g@"
	}
	op := d.Intern(prefix + d.posString(b, w))
	d.bindOp[key] = op
	return op
}

// describe is the descriptor of identifier id, or, when id is a bare
// name bound in this file (not by an import), that binding b and whether
// the name was resolved at module scope (the descriptor is then
// [g]@L:C of b, built by operand).
func (d *describer) describe(id int32, w *walker) (string, int32, bool) {
	t := d.t
	name := t.name(id)
	p := t.parent(id)
	if p >= 0 && t.typ(p) == nAttribute && t.nodes[id].field == fAttr {
		v := d.value(t.field(p, fObject), 0, w)
		if v == "" {
			return ".", -1, false
		}
		desc := v + "." + name
		if t.bindingName(p) {
			desc = "=" + desc
		}
		return desc, -1, false
	}
	if p >= 0 && t.typ(p) == nKeywordArg && t.nodes[id].field == fName {
		return "", -1, false
	}
	if st := t.enclosingImport(id); st >= 0 {
		v := d.importPart(st, id)
		if v != "" && t.bindingName(id) && t.typ(t.scopeOf(id)) == nModule {
			v = "g" + v
		}
		return v, -1, false
	}
	b, scope := d.lookup(id, name)
	g := ""
	if scope >= 0 && t.typ(scope) == nModule {
		g = "g"
	}
	switch {
	case b < 0 && g != "":
		return "g*", -1, false
	case b < 0:
		return "", -1, false
	}
	if st := t.enclosingImport(b); st >= 0 {
		if v := d.importValue(st, b); v != "" {
			return g + v, -1, false
		}
		return "", -1, false
	}
	return "", b, g != ""
}

func modulePath(dotted string) string {
	return strings.ReplaceAll(strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' {
			return -1
		}
		return c
	}, dotted), ".", "/")
}

func (d *describer) importValue(st, b int32) string {
	t := d.t
	p := t.parent(b)
	if t.typ(st) == nImport {
		dotted := t.text(b)
		if t.typ(p) == nAliasedImport {
			dotted = t.text(t.field(p, fName))
		}
		return "m" + modulePath(dotted)
	}
	name := t.text(b)
	if t.typ(p) == nAliasedImport {
		name = t.text(t.field(p, fName))
	}
	return d.fromMember(st, name)
}

func (d *describer) fromMember(st int32, name string) string {
	m := d.t.field(st, fModuleName)
	if m < 0 || name == "" {
		return ""
	}
	return "n" + modulePath(d.t.text(m)) + ":" + name
}

func (d *describer) importPart(st, id int32) string {
	t := d.t
	p := t.parent(id)
	if t.typ(p) == nAliasedImport && t.nodes[id].field == fAlias {
		return d.importValue(st, id)
	}
	mod := t.field(st, fModuleName)
	inModule := mod >= 0 && t.nodes[id].start >= t.nodes[mod].start && t.nodes[id].end <= t.nodes[mod].end
	if t.typ(st) == nImportFrom && !inModule {
		return d.fromMember(st, t.text(id))
	}
	start := t.nodes[p].start
	if inModule && t.typ(mod) == nRelativeImport {
		start = t.nodes[mod].start
	}
	return "m" + modulePath(string(t.src[start:t.nodes[id].end]))
}

func (d *describer) value(n int32, depth int, w *walker) string {
	t := d.t
	if n < 0 || depth > valueDepth {
		return ""
	}
	var v string
	switch t.typ(n) {
	case nIdent:
		name := t.name(n)
		b, scope := d.lookup(n, name)
		switch {
		case b >= 0:
			v = d.bindingValue(b, depth, w)
		case scope >= 0:
			v = "*" + name
		}
	case nAttribute:
		if o := d.value(t.field(n, fObject), depth+1, w); o != "" {
			v = o + "." + t.name(t.field(n, fAttr))
		}
	case nCall:
		if o := d.value(t.field(n, fFunction), depth+1, w); o != "" {
			v = o + "()"
		}
	case nParenthesized, nType:
		v = d.value(t.child(n, 0), depth+1, w)
	}
	if len(v) > extract.OperandMax {
		return ""
	}
	return v
}

func (d *describer) bindingValue(b int32, depth int, w *walker) string {
	k := [2]int32{b, int32(depth)}
	if v, ok := d.values[k]; ok {
		return v
	}
	v := d.bindingValueOf(b, depth, w)
	d.values[k] = v
	return v
}

func (d *describer) bindingValueOf(b int32, depth int, w *walker) string {
	t := d.t
	if st := t.enclosingImport(b); st >= 0 {
		return d.importValue(st, b)
	}
	p := t.parent(b)
	if p < 0 {
		return ""
	}
	switch t.typ(p) {
	case nClass:
		return "@" + d.posString(b, w)
	case nTypedParam, nTypedDefaultParam:
		return instance(d.value(t.field(p, fType), depth+1, w))
	case nParameters:
		if fn := t.parent(p); fn >= 0 && t.typ(fn) == nFunction && t.firstParam(fn) == b {
			if c := t.methodClass(fn); c >= 0 {
				if nm := t.field(c, fName); nm >= 0 {
					return "@" + d.posString(nm, w) + "()"
				}
			}
		}
	case nAssignment:
		if t.nodes[b].field != fLeft {
			return ""
		}
		if ty := t.field(p, fType); ty >= 0 {
			return instance(d.value(ty, depth+1, w))
		}
		return d.value(t.field(p, fRight), depth+1, w)
	}
	return ""
}

func instance(v string) string {
	if v == "" {
		return ""
	}
	return v + "()"
}

// facts appends star imports, module- and class-level binding values and
// class bases to the table.
func (d *describer) facts(w *walker) {
	t := d.t
	for st := t.nodes[0].first; st >= 0; st = t.nodes[st].next {
		if t.typ(st) == nImportFrom && t.typ(t.nodes[st].last) == nWildcard {
			if m := t.field(st, fModuleName); m >= 0 {
				d.Intern("!s" + modulePath(t.text(m)))
			}
		}
	}
	for _, b := range d.tab.scoped {
		if p := t.parent(b); p >= 0 && t.typ(p) == nAssignment {
			if v := d.bindingValue(b, 0, w); v != "" {
				d.Intern("!v@" + d.posString(b, w) + "=" + v)
			}
		}
	}
	for n := range t.nodes {
		c := int32(n)
		if t.nodes[c].typ != nClass {
			continue
		}
		bases, name := t.field(c, fSuperclasses), t.field(c, fName)
		if bases < 0 || name < 0 {
			continue
		}
		var vs []string
		for b := t.nodes[bases].first; b >= 0; b = t.nodes[b].next {
			if t.typ(b) != nKeywordArg {
				if v := d.value(b, 0, w); v != "" {
					vs = append(vs, v)
				}
			}
		}
		if len(vs) > 0 {
			d.Intern("!b@" + d.posString(name, w) + "=" + strings.Join(vs, " "))
		}
	}
}
