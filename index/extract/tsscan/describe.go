package tsscan

import (
	"sort"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// The resolution descriptors of index/typescript (describe.go and
// describe_facts.go there, which define the descriptor language) over
// the parser's records (tree.go): the same rules in the same order, so
// that each reference's descriptor and the table's order
// (Result.Operands) are what the tree-sitter path writes. The rules are
// index/typescript's over tree-sitter nodes; they are restated here over
// the records, as pyscan restates index/python's, because the parser
// builds no tree those functions could walk.

// valueDepth is tsValueDepth.
const valueDepth = 12

type describer struct {
	p *parser
	r *rec
	extract.Operands
	bind    map[bindKey]int32
	decls   []int32
	objects []int32 // object types described as classes
	exp     map[string]bool
	pos     map[int32]string
	heads   []string // bindingRef's memo, by binding
	buf     []byte
}

type bindKey struct {
	scope int32
	name  string
}

// at is "@L:C" of the byte offset off, memoised.
func (d *describer) at(off int32) string {
	if s, ok := d.pos[off]; ok {
		return s
	}
	ps := d.p.pos(int(off))
	s := "@" + strconv.FormatUint(uint64(ps.Line), 10) + ":" + strconv.FormatUint(uint64(ps.Col), 10)
	d.pos[off] = s
	return s
}

// describe writes res's descriptors and the file's facts (annotateTS).
func (p *parser) describe() {
	r := p.r
	d := &describer{p: p, r: r, bind: map[bindKey]int32{}, exp: map[string]bool{},
		pos: map[int32]string{}, heads: make([]string, len(r.binds))}
	for i, b := range r.binds {
		k := bindKey{b.scope, b.name}
		if _, ok := d.bind[k]; !ok {
			d.bind[k] = int32(i)
			d.decls = append(d.decls, int32(i))
		}
	}
	res := p.res
	added := d.docLinks()
	for i := range res.Refs {
		if i < len(r.refs) {
			res.Refs[i].Operand = d.describeRef(r.refs[i], res.Refs[i].Name, p.offOf(res.Refs[i].Pos))
		}
	}
	d.facts()
	if added {
		sort.SliceStable(res.Refs, func(i, j int) bool { return res.Refs[i].Pos.Less(res.Refs[j].Pos) })
	}
	res.Operands = d.Table
}

func (p *parser) offOf(ps extract.Pos) int32 { return int32(p.lines[ps.Line] + ps.Col) }

// lookup is tsLookupBinding over the table: the first binding of name
// in the scopes around scope, class bodies skipped.
func (d *describer) lookup(scope int32, name string) int32 {
	for s := scope; s >= 0; s = d.r.scopes[s].parent {
		if d.r.scopes[s].kind == sClassBody {
			continue
		}
		if b, ok := d.bind[bindKey{s, name}]; ok {
			return b
		}
	}
	return -1
}

// describeRef interns the descriptor of a reference; a property access,
// the most frequent, is built in a buffer and looked up first.
func (d *describer) describeRef(c refCtx, name string, off int32) uint32 {
	if c.kind != rMember && c.kind != rNested {
		return d.Intern(d.describe(c, name, off))
	}
	v := d.value(c.obj, 0)
	if v == "" {
		return d.Intern(".")
	}
	d.buf = append(append(append(append(d.buf[:0], '.'), v...), '.'), name...)
	if len(d.buf) > extract.OperandMax {
		return 0
	}
	if i, ok := d.Index[string(d.buf)]; ok {
		return i
	}
	return d.Intern(string(d.buf))
}

func (d *describer) describe(c refCtx, name string, off int32) string {
	switch c.kind {
	case rNone:
		return ""
	case rMember:
		return selector(d.value(c.obj, 0), name)
	case rThis:
		if f := d.thisField(c.fn, name); f >= 0 {
			return "." + d.at(f)
		}
		return selector(d.value(c.obj, 0), name)
	case rNested:
		return selector(d.value(c.obj, 0), name)
	case rSpec:
		return d.specifier(c.fn)
	case rAt:
		return d.at(off)
	}
	if b := d.lookup(c.scope, name); b >= 0 {
		return d.bindingRef(b)
	}
	if c.binding {
		return d.at(off)
	}
	return ""
}

// thisField is the first this.name = … of the plain function fn.
func (d *describer) thisField(fn int32, name string) int32 {
	for _, m := range d.r.fns[fn].this {
		if m.name == name {
			return m.off
		}
	}
	return -1
}

func selector(v, name string) string {
	if v == "" {
		return "."
	}
	return "." + v + "." + name
}

func suffix(v, step string) string {
	if v == "" {
		return ""
	}
	return v + step
}

// bindingRef is the head of binding b, memoised: a file names the same
// bindings over and over.
func (d *describer) bindingRef(b int32) string {
	if s := d.heads[b]; s != "" {
		return s
	}
	s := d.head(b)
	d.heads[b] = s
	return s
}

func (d *describer) head(b int32) string {
	bd := &d.r.binds[b]
	switch bd.kind {
	case bImportSpec:
		if bd.mod == "" {
			return ""
		}
		return bd.mod + "." + bd.spec
	case bNamespace:
		return bd.mod
	case bDefault:
		if bd.mod == "" {
			return ""
		}
		return bd.mod + ".default"
	}
	return d.at(bd.off)
}

// moduleHead is tsModuleHead.
func moduleHead(spec string) string {
	if spec == "" || strings.ContainsAny(spec, "|\n") {
		return ""
	}
	return "m" + spec + "|"
}

func (d *describer) specifier(s int32) string {
	sp := &d.r.specs[s]
	if sp.mod != "" {
		return sp.mod + "." + sp.name
	}
	if sp.export {
		if b := d.lookup(sp.scope, sp.name); b >= 0 {
			return d.bindingRef(b)
		}
	}
	return ""
}

// value is tsDescriber.value over an expression record.
func (d *describer) value(x int32, depth int) string {
	if x <= 0 || depth > valueDepth {
		return ""
	}
	e := &d.r.exprs[x]
	var v string
	switch e.kind {
	case xIdent:
		if b := d.lookup(e.scope, e.name); b >= 0 {
			v = d.bindingRef(b)
		}
	case xThis:
		if e.a >= 0 && d.r.objs[e.a].off >= 0 {
			v = d.at(d.r.objs[e.a].off) + "#"
		}
	case xSuper:
		if e.a >= 0 {
			v = suffix(d.value(d.r.objs[e.a].ext, depth+1), "#")
		}
	case xMember:
		v = suffix(d.value(e.a, depth+1), "."+e.name)
	case xNew:
		v = suffix(d.value(e.a, depth+1), "#")
	case xWrap:
		v = d.value(e.a, depth+1)
	case xCall:
		v = suffix(d.value(e.a, depth+1), "()")
	case xOr:
		if v = d.value(e.a, depth+1); v == "" {
			v = d.value(e.b, depth+1)
		}
	case xAs:
		if v = suffix(d.typeValue(e.a, depth+1), "#"); v == "" {
			v = d.value(e.b, depth+1)
		}
	}
	if len(v) > extract.OperandMax {
		return ""
	}
	return v
}

// unwrap is tsUnwrapType: a union's first member that is no literal.
func (d *describer) unwrap(t int32) int32 {
	for t > 0 {
		ty := &d.r.types[t]
		if ty.kind != tyUnion {
			return t
		}
		if m := d.unwrap(ty.a); m > 0 && d.r.types[m].kind != tyLiteral {
			return m
		}
		if m := d.unwrap(ty.b); m > 0 && d.r.types[m].kind != tyLiteral {
			return m
		}
		return 0
	}
	return 0
}

// typeValue is tsDescriber.typeValue.
func (d *describer) typeValue(t int32, depth int) string {
	for t = d.unwrap(t); t > 0 && depth <= valueDepth; depth++ {
		ty := &d.r.types[t]
		switch ty.kind {
		case tyGeneric:
			t = ty.a
			continue
		case tyObject:
			d.objects = append(d.objects, ty.a)
			return d.at(d.r.objs[ty.a].off)
		case tyName:
			if b := d.lookup(ty.scope, ty.name); b >= 0 {
				return d.bindingRef(b)
			}
		case tyNested:
			return suffix(d.value(ty.a, depth+1), "."+ty.name)
		}
		return ""
	}
	return ""
}

func (d *describer) instanceOf(t int32) string { return suffix(d.typeValue(t, 0), "#") }
