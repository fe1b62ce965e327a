package tsscan

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// The facts of the descriptor table (describe_facts.go of
// index/typescript), in its order: bindings, classes, signatures,
// exports, object types.

func (d *describer) facts() {
	named := map[extract.Pos]bool{}
	for _, s := range d.p.res.Symbols {
		named[s.Selection.Start] = true
	}
	for _, b := range d.decls {
		bd := &d.r.binds[b]
		if v := d.bindingValue(b); v != "" {
			d.Intern("!v" + d.at(bd.off) + "=" + v)
		}
		if !named[d.p.pos(int(bd.off))] && bd.scope == 0 && d.bindingRef(b) == d.at(bd.off) {
			d.Intern("!g" + d.at(bd.off))
		}
	}
	for _, c := range d.r.classes {
		d.classFacts(c)
	}
	for _, s := range d.r.sigs {
		d.signatureFacts(s)
	}
	d.exports()
	d.objectFacts()
}

func (d *describer) bindingValue(b int32) string {
	bd := &d.r.binds[b]
	switch bd.kind {
	case bParam:
		if bd.typ > 0 {
			d.returnsIfFunction(bd.off, bd.typ)
			return d.instanceOf(bd.typ)
		}
		return d.defaulted(bd, bd.val)
	case bJSDefault:
		return d.value(bd.val, 0)
	case bArrowParam:
		return d.contextual(bd.fn, 0)
	case bDestructured:
		return suffix(d.value(bd.val, 0), "."+bd.name)
	case bTypeAlias:
		return d.typeValue(bd.typ, 0)
	case bVar:
		if bd.typ > 0 {
			d.returnsIfFunction(bd.off, bd.typ)
			return d.instanceOf(bd.typ)
		}
		if e := &d.r.exprs[bd.val]; bd.val > 0 && e.kind == xFunc {
			d.returns(bd.off, e.a)
			d.callbacks(bd.off, e.a)
		}
		return d.value(bd.val, 0)
	}
	return ""
}

// defaulted: a parameter's contextual type, else its default's value.
func (d *describer) defaulted(bd *binding, def int32) string {
	if bd.param >= 0 {
		if v := d.contextual(bd.fn, bd.param); v != "" {
			return v
		}
	}
	return d.value(def, 0)
}

func (d *describer) returns(nm, fn int32) {
	if v := d.instanceOf(d.r.fns[fn].ret); v != "" {
		d.Intern("!r" + d.at(nm) + "=" + v)
	}
}

func (d *describer) returnsIfFunction(nm, ty int32) {
	if ft := d.unwrap(ty); ft > 0 && d.r.types[ft].kind == tyFunc {
		d.returns(nm, d.r.types[ft].a)
	}
}

// callbacks writes the !c facts of signature fn named at group.
func (d *describer) callbacks(group, fn int32) {
	for a, prm := range d.params(fn) {
		ty := d.unwrap(prm.typ)
		if ty <= 0 || d.r.types[ty].kind != tyFunc {
			continue
		}
		for i, cb := range d.params(d.r.types[ty].a) {
			v := d.instanceOf(cb.typ)
			if v == "" {
				continue
			}
			key := "!c" + d.at(group) + "/" + strconv.Itoa(a) + "/" + strconv.Itoa(i) + "="
			if !d.hasPrefix(key) {
				d.Intern(key + v)
			}
		}
	}
}

// params is tsParams: TypeScript's parameters but this (the parser
// records JavaScript's bare parameters as none).
func (d *describer) params(fn int32) []param { return d.r.fns[fn].params }

func (d *describer) hasPrefix(key string) bool {
	for _, s := range d.Table {
		if strings.HasPrefix(s, key) {
			return true
		}
	}
	return false
}

func (d *describer) signatureFacts(s int32) {
	f := &d.r.fns[s]
	group := s
	for _, o := range d.r.sigs { // tsOverloads: the first of its name in its container
		if g := &d.r.fns[o]; g.container == f.container && g.name == f.name {
			group = o
			break
		}
	}
	if group == s {
		d.returns(f.off, s)
	}
	d.callbacks(d.r.fns[group].off, s)
}

func (d *describer) classFacts(c int32) {
	o := &d.r.objs[c]
	if o.off < 0 {
		return
	}
	var supers []string
	for _, h := range o.supers {
		v := ""
		if h.x > 0 {
			if k := d.r.exprs[h.x].kind; k == xIdent || k == xMember {
				v = d.value(h.x, 0)
			}
		} else {
			v = d.typeValue(h.typ, 0)
		}
		if v != "" && !strings.Contains(v, " ") {
			supers = append(supers, v)
		}
	}
	d.Intern("!b" + d.at(o.off) + "=" + strings.Join(supers, " "))
	d.memberFacts(c, false)
}

func (d *describer) objectFacts() {
	done := map[int32]bool{}
	for i := 0; i < len(d.objects); i++ {
		o := d.objects[i]
		if done[d.r.objs[o].off] {
			continue
		}
		done[d.r.objs[o].off] = true
		d.Intern("!b" + d.at(d.r.objs[o].off) + "=")
		d.memberFacts(o, true)
	}
}

func (d *describer) memberFacts(c int32, object bool) {
	o := &d.r.objs[c]
	name := d.at(o.off)
	for _, m := range o.members {
		if object {
			d.Intern("!m" + name + "=" + m.name + d.at(m.off))
		}
		if m.typ > 0 && !m.method {
			d.returnsIfFunction(m.off, m.typ)
			if v := d.instanceOf(m.typ); v != "" {
				d.Intern("!v" + d.at(m.off) + "=" + v)
			}
		}
		if m.ctor >= 0 {
			for _, prm := range d.r.fns[m.ctor].params {
				if prm.prop && prm.name != "" {
					d.Intern("!m" + name + "=" + prm.name + d.at(prm.off))
				}
			}
		}
	}
	if !object && !d.p.ts {
		seen := map[string]bool{}
		for _, m := range o.this {
			if !seen[m.name] {
				seen[m.name] = true
				d.Intern("!m" + name + "=" + m.name + d.at(m.off))
			}
		}
	}
}

// contextual is tsDescriber.contextual for parameter idx of the function
// literal fn.
func (d *describer) contextual(fn, idx int32) string {
	f := &d.r.fns[fn]
	if f.kind != fnLiteral || f.arg < 0 {
		return ""
	}
	callee := d.value(f.callee, 0)
	if f.isNew {
		callee = suffix(callee, ".constructor")
	}
	if callee == "" {
		return ""
	}
	return callee + "~" + strconv.Itoa(int(f.arg)) + "/" + strconv.Itoa(int(idx))
}

func (d *describer) exports() {
	for i := range d.r.exports {
		e := &d.r.exports[i]
		switch e.kind {
		case exDecl:
			if e.nameOff >= 0 {
				d.export(e.name, d.at(e.nameOff))
				continue
			}
			for _, b := range e.names {
				d.export(d.r.binds[b].name, d.at(d.r.binds[b].off))
			}
		case exValue:
			d.export("default", d.value(e.val, 0))
		case exClause:
			for j, s := range e.specs {
				d.export(e.alias[j], d.specifier(s))
			}
		case exStar:
			if e.mod != "" {
				d.Intern("!s" + e.mod[1:len(e.mod)-1])
			}
		}
	}
}

func (d *describer) export(name, v string) {
	if d.exp[name] {
		return
	}
	d.exp[name] = true
	if v != "" {
		d.Intern("!e" + name + "=" + v)
	}
}

// docLinks adds the JSDoc links of the file's comments to its references
// (tsDescriber.docLinks).
func (d *describer) docLinks() bool {
	p := d.p
	added := false
	for _, c := range p.l.comments {
		text := p.src[c.start:c.end]
		if bytes.Index(text, []byte("@link")) < 0 {
			continue
		}
		scope := d.scopeAt(int32(c.start))
		for j, name := range extract.DocLinks(text) {
			b := d.lookup(scope, name)
			if b < 0 {
				continue
			}
			desc := d.bindingRef(b)
			if desc == "" {
				continue
			}
			p.res.Refs = append(p.res.Refs, extract.Ref{Name: name, Pos: p.pos(c.start + j), Operand: d.Intern(desc)})
			added = true
		}
	}
	return added
}

// scopeAt is the innermost scope whose span holds off: where tree-sitter
// hangs a comment, near enough for the scope rule.
func (d *describer) scopeAt(off int32) int32 {
	best := int32(0)
	for i := 1; i < len(d.r.scopes); i++ {
		s := &d.r.scopes[i]
		if s.start <= off && off < s.end && s.start >= d.r.scopes[best].start {
			best = int32(i)
		}
	}
	return best
}
