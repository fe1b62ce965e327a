package tsscan

// What index/typescript's describer reads of tree-sitter's tree, recorded
// as the parser goes (it builds no tree): the scopes, the bindings, the
// expressions and types a descriptor's value reads, classes, signatures,
// export statements, and each reference's syntactic context. describe.go
// evaluates them once the file is read, when every binding is known.
// The node types named in the comments are tree-sitter's.

// sKind is a scope node's type (tsScopeTypes).
type sKind uint8

const (
	sProgram sKind = iota
	sBlock
	sFunc // function_declaration, function_expression, generator forms
	sArrow
	sMethod
	sFor
	sCatch
	sClassBody
)

type scopeRec struct {
	parent     int32
	kind       sKind
	start, end int32
}

// bKind is what a binding identifier's parent is, as tsBindingValue and
// bindingRef read it.
type bKind uint8

const (
	bOther        bKind = iota
	bImportSpec         // import_specifier: mod.spec
	bNamespace          // namespace_import: mod
	bDefault            // import_clause: mod.default
	bVar                // variable_declarator's name
	bDestructured       // shorthand in an object_pattern that is a declarator's name
	bParam              // required_parameter / optional_parameter's pattern
	bJSDefault          // assignment_pattern in formal_parameters (JavaScript)
	bArrowParam         // x of x => …
	bTypeAlias          // type_alias_declaration's name
)

type binding struct {
	name  string
	off   int32
	scope int32
	kind  bKind
	mod   string // module head of an import
	spec  string // imported name
	typ   int32  // annotation (type id)
	val   int32  // value or default (expr id)
	fn    int32  // function of a parameter (fn id)
	param int32  // parameter index among tsParams, -1 for none
}

// xKind is an expression's type, for value.
type xKind uint8

const (
	xOpaque xKind = iota
	xIdent
	xThis
	xSuper
	xMember
	xNew
	xWrap // parenthesized, non-null, await
	xCall
	xOr // || and ??
	xAs
	xFunc   // arrow_function, function_expression
	xObject // an object literal: a indexes rec.shorts
)

type expr struct {
	kind  xKind
	a, b  int32 // operands; xAs: a type, b expr; xFunc: a fn id; xThis/xSuper: a class id
	off   int32
	scope int32
	name  string
}

// tKind is a type's node type, for typeValue and the facts.
type tKind uint8

const (
	tyOther   tKind = iota
	tyName          // type_identifier, identifier
	tyNested        // nested_type_identifier: a expr (module), name
	tyGeneric       // generic_type: a its name's type
	tyObject        // object_type: a obj id
	tyFunc          // function_type: a fn id
	tyLiteral       // literal_type (undefined included)
	tyUnion         // a, b members
)

type typeRec struct {
	kind  tKind
	a, b  int32
	off   int32
	scope int32
	name  string
}

// member is a class, interface or object type member with a name field.
type member struct {
	name   string
	off    int32
	typ    int32 // type field, 0 for none (method signatures keep theirs off)
	ctor   int32 // constructor's fn id, -1 else
	method bool  // method_signature (its type field is not read)
}

// objRec is a class, interface or object type.
type objRec struct {
	name    string
	off     int32 // name's (or the object type's own) start, -1 unnamed
	supers  []heritage
	members []member
	ext     int32 // extends clause's callee expression (super), 0 none
	this    []member
}

type heritage struct {
	x   int32 // an expression (extends of a class)
	typ int32 // or a type
}

// fnKind is a function node's type.
type fnKind uint8

const (
	fnSig     fnKind = iota // tsSignatureTypes: a named declaration or method
	fnLiteral               // arrow_function, function_expression
	fnType                  // function_type
	fnOther                 // a signature no rule reads (constructor types)
)

type param struct {
	typ  int32
	name string // the identifier pattern, "" else
	off  int32
	prop bool // accessibility or override modifier
}

type fnRec struct {
	kind      fnKind
	name      string
	off       int32
	container int32
	params    []param
	ret       int32
	// A literal passed as an argument: the call's callee value (an expr),
	// new for a new_expression, and its index among the arguments.
	callee int32
	isNew  bool
	arg    int32
	this   []member // JavaScript this.x = … of a plain function
}

// rKind is how a reference is described.
type rKind uint8

const (
	rNone   rKind = iota // no identifier node, or a property_identifier
	rLookup              // an identifier: its binding through the scopes
	rMember              // x.name: obj
	rNested              // a nested type identifier's name: obj is the module
	rSpec                // import or export specifier
	rAt                  // a member's own name
	rThis                // this.name in a JavaScript plain function fn
)

type refCtx struct {
	kind    rKind
	binding bool // tsBinding: at itself when no lookup finds it
	scope   int32
	obj     int32 // expr
	fn      int32 // rThis: the function, rSpec: the specifier
}

type specRec struct {
	mod    string
	name   string
	nameAt int32 // the name's offset
	export bool
	scope  int32
}

type exportRec struct {
	kind    uint8 // exDecl, exValue, exClause, exStar
	name    string
	nameOff int32 // exDecl with a name
	names   []int32
	val     int32
	mod     string
	specs   []int32 // spec ids, exported names in names' order
	alias   []string
}

const (
	exDecl uint8 = iota
	exValue
	exClause
	exStar
	exNone
)

// rec holds the records of one file.
type rec struct {
	scopes   []scopeRec
	binds    []binding
	exprs    []expr
	types    []typeRec
	objs     []objRec
	classes  []int32 // objs that are classes and interfaces, in order
	fns      []fnRec
	sigs     []int32 // fns of tsSignatureTypes, in order
	specs    []specRec
	exports  []exportRec
	refs     []refCtx  // parallel to Result.Refs
	shorts   [][]int32 // each object literal's shorthand names (ref indexes)
	nextCont int32
}

func (r *rec) expr(e expr) int32 {
	r.exprs = append(r.exprs, e)
	return int32(len(r.exprs) - 1)
}

func (r *rec) typ(t typeRec) int32 {
	r.types = append(r.types, t)
	return int32(len(r.types) - 1)
}

func newRec(size int) *rec {
	// Sized as Result.Refs is: about one reference in 16 bytes, and as
	// many expressions.
	n := size/16 + 8
	r := &rec{refs: make([]refCtx, 0, n), exprs: make([]expr, 0, n), binds: make([]binding, 0, n/4)}
	r.exprs = append(r.exprs, expr{}) // 0: unknown
	r.types = append(r.types, typeRec{}, typeRec{kind: tyOther}, typeRec{kind: tyLiteral})
	r.scopes = append(r.scopes, scopeRec{parent: -1, kind: sProgram, end: 1 << 30})
	return r
}

// openScope enters a scope node of kind k starting at start; closeScope
// (the returned function's) leaves it at the token just read.
func (p *parser) openScope(k sKind, start int) func() {
	outer := p.enterScope(k, start)
	return func() { p.leaveScope(outer) }
}

// enterScope is openScope without a closure, for the frequent scopes: it
// returns the scope leaveScope returns to.
func (p *parser) enterScope(k sKind, start int) int32 {
	outer := p.sc
	p.r.scopes = append(p.r.scopes, scopeRec{parent: outer, kind: k, start: int32(start)})
	p.sc = int32(len(p.r.scopes) - 1)
	return outer
}

func (p *parser) leaveScope(outer int32) {
	p.r.scopes[p.sc].end = int32(p.prev)
	p.sc = outer
}

// bind records a binding identifier token t of kind k; the returned
// index lets the caller fill in its value.
func (p *parser) bind(t token, k bKind) int32 {
	p.r.binds = append(p.r.binds, binding{name: p.intern(p.src[t.start:t.end]), off: int32(t.start), scope: p.sc,
		kind: k, fn: -1, param: -1})
	b := int32(len(p.r.binds) - 1)
	if p.expDecl != nil {
		*p.expDecl = append(*p.expDecl, b)
	}
	return b
}

// refBind records t as both a reference and a binding identifier.
func (p *parser) refBind(t token, k bKind) int32 {
	p.refAs(t, refCtx{kind: rLookup, binding: true, scope: p.sc})
	return p.bind(t, k)
}

// newCont is a fresh container id (a statement or member list).
func (p *parser) newCont() int32 {
	p.r.nextCont++
	return p.r.nextCont
}

// binChain is a flat run of binary operands, built into the expression
// tree tree-sitter's precedences give, for the operators value reads
// (|| and ??, as): the others are opaque.
type binChain struct {
	xs   []int32
	ops  []string
	xbuf [8]int32 // most chains are short: no allocation
	obuf [8]string
}

func (b *binChain) start(x int32) {
	b.xs, b.ops = append(b.xbuf[:0], x), b.obuf[:0]
}

func (b *binChain) add(op string, x int32) {
	b.ops = append(b.ops, op)
	b.xs = append(b.xs, x)
}

func binPrec(op string) int {
	switch op {
	case "??":
		return 1
	case "||":
		return 2
	case "&&":
		return 3
	case "|":
		return 4
	case "^":
		return 5
	case "&":
		return 6
	case "==", "!=", "===", "!==":
		return 7
	case "<", ">", "<=", ">=", "in", "as":
		return 8
	case "<<", ">>", ">>>":
		return 9
	case "+", "-":
		return 10
	case "*", "/", "%":
		return 11
	}
	return 12 // **
}

func (b *binChain) build(r *rec) int32 {
	if len(b.ops) == 0 {
		return b.xs[0]
	}
	i := 0
	return b.climb(r, b.xs[0], 0, &i)
}

// climb is precedence climbing from lhs over the operators from *i.
func (b *binChain) climb(r *rec, lhs int32, min int, i *int) int32 {
	for *i < len(b.ops) && binPrec(b.ops[*i]) >= min {
		op := b.ops[*i]
		rhs := b.xs[*i+1]
		*i++
		if op == "as" {
			lhs = r.expr(expr{kind: xAs, a: rhs, b: lhs})
			continue
		}
		for *i < len(b.ops) && (binPrec(b.ops[*i]) > binPrec(op) || op == "**" && b.ops[*i] == "**") {
			next := binPrec(op)
			if binPrec(b.ops[*i]) > next {
				next++
			}
			rhs = b.climb(r, rhs, next, i)
		}
		if op == "||" || op == "??" {
			lhs = r.expr(expr{kind: xOr, a: lhs, b: rhs})
		} else {
			lhs = 0
		}
	}
	return lhs
}

// newFn records a function node of kind k.
func (p *parser) newFn(k fnKind) int32 {
	p.r.fns = append(p.r.fns, fnRec{kind: k, container: -1, callee: 0, arg: -1})
	return int32(len(p.r.fns) - 1)
}

// noExportWalk stops an exported declaration's binding walk inside a
// function literal (tsDescriber.exportedDecl); the returned function
// resumes it.
func (p *parser) noExportWalk() func() {
	saved := p.expDecl
	p.expDecl = nil
	return func() { p.expDecl = saved }
}

// sigFn records a signature declaration named by the token t (one of
// tsSignatureTypes).
func (p *parser) sigFn(t token) int32 {
	fn := p.newFn(fnSig)
	f := &p.r.fns[fn]
	f.name, f.off, f.container = string(p.src[t.start:t.end]), int32(t.start), p.cont
	p.r.sigs = append(p.r.sigs, fn)
	return fn
}

// enterThis sets what this is in a function (fn >= 0: a plain function)
// or a class body (cls >= 0); the returned function restores it.
func (p *parser) enterThis(fn, cls int32) func() {
	c, tf, tt, tc := p.cls, p.thisFn, p.thisTo, p.thisCls
	switch {
	case fn >= 0:
		p.cls, p.thisFn, p.thisTo, p.thisCls = -1, fn, fn, false
	case cls >= 0:
		p.cls, p.thisFn, p.thisTo, p.thisCls = cls, -1, cls, true
	}
	return func() { p.cls, p.thisFn, p.thisTo, p.thisCls = c, tf, tt, tc }
}

// Shared type records: a type no rule reads, and a literal type.
const (
	tyOtherID   int32 = 1
	tyLiteralID int32 = 2
)

// newObj records a class, interface or object type starting at off.
func (p *parser) newObj(off int) int32 {
	p.r.objs = append(p.r.objs, objRec{off: int32(off)})
	return int32(len(p.r.objs) - 1)
}

// inCont makes c the container of the signatures read until the
// returned function restores the one before.
func (p *parser) inCont(c int32) func() {
	saved := p.cont
	p.cont = c
	return func() { p.cont = saved }
}

// sigFnAt records a signature member named name at off.
func (p *parser) sigFnAt(name string, off int32) int32 {
	fn := p.newFn(fnSig)
	f := &p.r.fns[fn]
	f.name, f.off, f.container = name, off, p.cont
	p.r.sigs = append(p.r.sigs, fn)
	return fn
}

// memberName reads a member's name: a word is the member's own
// declaration (property_identifier under a member: its position).
func (p *parser) memberName() {
	if p.tok.kind == tName {
		p.refAs(p.tok, refCtx{kind: rAt})
		p.next()
		return
	}
	p.propertyName()
}

// declName records the token t as the name of the declaration an export
// statement exports, when it is that declaration's.
func (p *parser) declName(t token) {
	if !p.expTop {
		return
	}
	p.expTop = false
	e := p.expCur
	e.nameOff = int32(t.start)
	if e.name == "" {
		e.name = string(p.src[t.start:t.end])
	}
}

// bindType records a binding named by a type_identifier (a class,
// interface or type alias name), which no exported declaration's walk
// lists.
func (p *parser) bindType(t token, k bKind) int32 {
	saved := p.expDecl
	p.expDecl = nil
	p.refAs(t, refCtx{kind: rLookup, binding: true, scope: p.sc})
	b := p.bind(t, k)
	p.expDecl = saved
	return b
}

// exportRec starts an export statement's record; its walk collects the
// bindings of its declaration. Only the program's own export statements
// count (tsDescriber.exports); the others get a throwaway record.
func (p *parser) exportRec() *exportRec {
	if p.sc != 0 {
		return &exportRec{kind: exNone, nameOff: -1}
	}
	p.r.exports = append(p.r.exports, exportRec{kind: exNone, nameOff: -1})
	return &p.r.exports[len(p.r.exports)-1]
}

// exportDone ends the export statement e: the returned function stops
// its walk.
func (p *parser) exportDone(e *exportRec) func() {
	saved, cur := p.expDecl, p.expCur
	p.expDecl, p.expCur = &e.names, e
	return func() {
		p.expDecl, p.expTop, p.expCur = saved, false, cur
	}
}
