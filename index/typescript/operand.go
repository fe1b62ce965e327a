package typescript

import (
	"slices"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// Operand is what the expression before a member access evaluates to, as
// Definitions evaluates `x.m` to find m: a module (Module, its file in
// Path), or a class or interface and the ones it extends and implements
// (Classes, nearest first). Inline completion lists their members.
type Operand struct {
	Module   string
	Classes  []ClassRef
	Instance bool
}

// ClassRef is a class or interface declared in Path, its name at Pos.
type ClassRef struct {
	Path string
	Pos  extract.Pos
}

// maxOperandClasses bounds the heritage OperandAt follows.
const maxOperandClasses = 8

// placeholder stands for the member not typed yet after a dot, so that
// the operand parses as a member access whatever follows the cursor.
const placeholder = "_parleyMember"

// OperandAt evaluates the operand of the member access whose dot is at
// byte offset dot of src, the content of the TypeScript or JavaScript
// file from (`subscriber.`, `innerFrom(input).`, `x?.`); ok is false when
// the syntax does not settle it (an untyped parameter, a call whose
// callee declares no return type).
func OperandAt(s *index.Store, from string, src []byte, dot int, read syntax.SourceReader) (Operand, bool) {
	if !IsFile(from) || dot < 0 || dot >= len(src) || src[dot] != '.' {
		return Operand{}, false
	}
	at := dot + 1
	end := at
	for end < len(src) && (index.IsIdentByte(src[end]) || src[end] == '$') {
		end++
	}
	// The whole buffer first, the member typed so far replaced by the
	// placeholder; when the line being typed breaks the syntax around
	// it (an unclosed call swallows the enclosing function into an
	// ERROR node, and with it the scopes; or the recovery parses the
	// callback's parameters as something else), the text before the
	// cursor with its brackets closed.
	for _, text := range [][]byte{
		slices.Concat(src[:at], []byte(placeholder), src[end:]),
		closed(slices.Concat(src[:at], []byte(placeholder))),
	} {
		if op, ok := operandIn(s, from, text, at, read); ok {
			return op, true
		}
	}
	return Operand{}, false
}

// operandIn is OperandAt in text, whose member access has its property
// at at. It has a resolver of its own: a resolver keeps the first text
// it parsed for a path.
func operandIn(s *index.Store, from string, text []byte, at int, read syntax.SourceReader) (Operand, bool) {
	r := newResolver(s, read)
	defer r.Release()
	obj, f := r.operandNode(from, text, at)
	if obj == nil {
		return Operand{}, false
	}
	v := r.tsEval(f, obj)
	if v.Module != "" {
		return Operand{Module: v.Module}, true
	}
	if v.Class == nil {
		return Operand{}, false
	}
	op := Operand{Instance: v.Instance}
	seen := map[string]bool{}
	queue := []*syntax.Class{v.Class}
	for len(queue) > 0 && len(op.Classes) < maxOperandClasses && r.Step() {
		c := queue[0]
		queue = queue[1:]
		ref, ok := classRef(c)
		key := ref.Path + "\x00" + syntax.PosKey(ref.Pos)
		if !ok || seen[key] {
			continue
		}
		seen[key] = true
		op.Classes = append(op.Classes, ref)
		queue = append(queue, r.supersOf(c)...)
	}
	return op, len(op.Classes) > 0
}

// operandNode parses src as the file from and returns the object of the
// member access whose property starts at at, or nil when there is none
// or it lies in an ERROR node.
func (r *resolver) operandNode(from string, src []byte, at int) (*ts.Node, *syntax.File) {
	f := r.tsFile(from, src)
	if f == nil {
		return nil, nil
	}
	id := tsIdentAt(f, at)
	if id == nil {
		return nil, nil
	}
	p := id.Parent()
	if p == nil || f.Type(p) != "member_expression" || !syntax.SameNode(f.Field(p, "property"), id) {
		return nil, nil
	}
	for a := p; a != nil; a = a.Parent() {
		if a.IsError() {
			return nil, nil
		}
	}
	return f.Field(p, "object"), f
}

// classRef is where c is declared: a parsed class by its name node (an
// object type literal has none), an indexed one as the index knows it.
func classRef(c *syntax.Class) (ClassRef, bool) {
	if c.F == nil {
		return ClassRef{Path: c.Path, Pos: c.Pos}, c.Path != ""
	}
	name := c.F.Field(c.Node, "name")
	if name == nil {
		return ClassRef{}, false
	}
	pt := name.StartPoint()
	return ClassRef{Path: c.F.Rel, Pos: extract.Pos{Line: pt.Row, Col: pt.Column}}, true
}

// supersOf are the classes and interfaces c extends and implements, for
// a parsed class (tsSupers) and an indexed one (its heritage
// descriptors) alike.
func (r *resolver) supersOf(c *syntax.Class) []*syntax.Class {
	if c.F != nil {
		return r.tsSupers(c)
	}
	x := r.tsIdxFile(c.Path)
	if x == nil {
		return nil
	}
	var out []*syntax.Class
	for _, d := range x.classes[syntax.PosKey(c.Pos)] {
		if sv := r.tsEvalDesc(c.Path, d, ""); sv.Class != nil && !sv.Instance {
			out = append(out, sv.Class)
		}
	}
	return out
}
