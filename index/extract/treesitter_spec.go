package extract

import (
	"fmt"
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// This file holds the language-table types that treesitter.go interprets,
// their compilation against a loaded grammar, and small node helpers the
// per-language tables share.

// scopeKind says what a definition opens for the nodes inside it.
type scopeKind uint8

const (
	scopeNone scopeKind = iota
	// scopeType: class-like bodies; functions inside become methods.
	scopeType
	// scopeFunc: function bodies; branch points count towards it and
	// variables inside are locals, not symbols.
	scopeFunc
	// scopeNS: namespaces and modules; functions inside stay functions.
	scopeNS
)

// langSpec is one language's table. Node types are grammar type names;
// "a|b" lists alternatives.
type langSpec struct {
	name    string // canonical language name used by the registry
	grammar string // gotreesitter grammar name

	defs   []defRule
	idents []identRule
	// calls maps a call node type to the field holding its callee ("" or
	// "^" for the first named child).
	calls map[string]string
	// callees maps node types met on the way from a callee expression to
	// the called name (member access, scoped names) to the field holding
	// the next part ("" for the last named child, "^" for the first).
	callees map[string]string
	imports map[string]func(w *tsWalker, n *ts.Node)
	// pkg maps a node type to the field holding the file's package or
	// namespace name ("" for the first named child); the first one wins.
	pkg map[string]string
	// hooks run when a node of the type is visited (C++ access labels).
	hooks map[string]func(w *tsWalker, n *ts.Node)

	comments  string // comment node types
	branches  string // named node types that are decision points
	branchOps string // anonymous operator tokens, space-separated ("&& ||")
	// opParents limits branchOps to tokens under these node types: C++
	// spells rvalue references "&&" too.
	opParents string
	wrappers  string // nodes wrapping a definition: export, decorators, templates
	docSkip   string // nodes allowed between a doc comment and its definition
	sigSkip   string // leading children skipped when choosing the signature start
	sigInto   string // leading children searched for the signature start (modifiers)

	ctorNames    string // method names that are constructors
	ctorSameName bool   // a method named like its class is a constructor
	upperConst   bool   // upper-case variables are constants
	docstring    bool   // the first string statement of a body is its doc
	docTrim      string // comment marker characters DocLine leaves behind
	docClean     func(string) string

	// mask rewrites a source before it is parsed, keeping every byte's
	// offset, to steer the grammar around its mis-parses (TypeScript, C#).
	mask func([]byte) []byte

	// forest parses on gotreesitter's forest path first (C#, see
	// forest.go).
	forest bool

	// finish runs after the walk (JS marks names listed in export { }).
	finish func(w *tsWalker)

	// exported decides Symbol.Exported for definitions outside function
	// bodies (locals are never exported).
	exported func(w *tsWalker, d *defSite) bool
}

// defRule marks a node type as a definition.
type defRule struct {
	typ    string
	parent string // only when the parent node has one of these types
	field  string // only when the node sits in this field of its parent
	// kind 0 makes a pseudo scope: no symbol, but a container name for the
	// nodes inside (Rust impl blocks, Swift extensions).
	kind SymbolKind
	// name is a path from the node to its name node: space-separated steps,
	// each a field name, "@a|b" (first named child of one of the types) or
	// "." (the node itself).
	name  string
	scope scopeKind
	// outer is how many levels up the declaration node sits that carries
	// the signature, doc comment, modifiers and range (1 for declarators).
	outer int
	// topOnly skips the rule inside function bodies (variables).
	topOnly bool
	// custom may adjust the site or reject it (return false).
	custom func(w *tsWalker, d *defSite) bool
}

// identRule marks a node type as an identifier whose text is a Ref.
type identRule struct {
	typ    string
	parent string
	field  string
}

// defSite is a definition being recorded; custom hooks and exported
// predicates read and adjust it.
type defSite struct {
	node      *ts.Node // the node that matched the rule
	decl      *ts.Node // declaration node: node or an ancestor (rule.outer)
	wrapper   *ts.Node // export/decorator/template node around decl, if any
	nameNode  *ts.Node
	name      string
	kind      SymbolKind
	container string // extra qualifier from the name itself (C++ Foo::bar)
	scope     scopeKind
	rule      *defC
	// membersPrivate: members default to private until an access label
	// says otherwise (C++ class bodies).
	membersPrivate bool
	// sticky pseudo scopes stay open to the end of the file instead of
	// closing with the node (C# file-scoped namespaces precede their
	// members).
	sticky bool
}

// pathStep is one compiled step of a name path.
type pathStep struct {
	self  bool
	field string
	types symSet
}

type defC struct {
	defRule
	parents symSet
	path    []pathStep
}

type identC struct {
	parents symSet
	field   string
}

// symSet is a short list of grammar symbols; rules name one to three types
// so a linear scan beats a map.
type symSet []ts.Symbol

func (s symSet) has(sym ts.Symbol) bool {
	for _, x := range s {
		if x == sym {
			return true
		}
	}
	return false
}

// symInfo is everything the walker does for one grammar symbol. Symbols
// that need nothing have a nil entry so the hot loop is one index and one
// nil check per node.
type symInfo struct {
	idents      []*identC
	defs        []*defC
	isCall      bool
	calleeField string
	isCallee    bool
	nextField   string
	imp         func(w *tsWalker, n *ts.Node)
	isPkg       bool
	pkgField    string
	hook        func(w *tsWalker, n *ts.Node)
	comment     bool
	branch      bool
	wrapper     bool
	docSkip     bool
	sigSkip     bool
	sigInto     bool
}

// compiled is a langSpec bound to its loaded grammar.
type compiled struct {
	spec      *langSpec
	lang      *ts.Language
	factory   func([]byte, *ts.Language) ts.TokenSource
	info      []*symInfo
	ctors     map[string]bool
	opParents symSet
}

// symbolsByName maps type names to grammar symbols. Named and anonymous
// symbols share names ("if" is both a Ruby node and a keyword), so they are
// kept apart.
type symbolsByName struct {
	named, anon map[string][]ts.Symbol
}

func indexSymbols(lang *ts.Language) symbolsByName {
	idx := symbolsByName{named: map[string][]ts.Symbol{}, anon: map[string][]ts.Symbol{}}
	for i, name := range lang.SymbolNames {
		// Blob symbol names escape "?" as `\?`; Node.Type undoes it, so
		// must we ("??" is a branch token).
		name = strings.ReplaceAll(name, `\?`, "?")
		named := i < len(lang.SymbolMetadata) && lang.SymbolMetadata[i].Named
		if named {
			idx.named[name] = append(idx.named[name], ts.Symbol(i))
		} else {
			idx.anon[name] = append(idx.anon[name], ts.Symbol(i))
		}
	}
	return idx
}

func (idx symbolsByName) set(types string) symSet {
	var out symSet
	for _, t := range splitTypes(types) {
		out = append(out, idx.named[t]...)
	}
	return out
}

// constraint is set for rule conditions: a condition naming only types the
// grammar lacks must never hold, rather than silently vanish.
func (idx symbolsByName) constraint(types string) symSet {
	out := idx.set(types)
	if types != "" && len(out) == 0 {
		out = symSet{noSymbol}
	}
	return out
}

// noSymbol matches no node.
const noSymbol = ^ts.Symbol(0)

func splitTypes(types string) []string {
	if types == "" {
		return nil
	}
	return strings.Split(types, "|")
}

// compileSpec resolves every type name of spec to grammar symbols. Unknown
// names are ignored: grammars differ slightly between versions and a rule
// that never fires is harmless.
func compileSpec(spec *langSpec, lang *ts.Language, factory func([]byte, *ts.Language) ts.TokenSource) (*compiled, error) {
	if lang == nil || len(lang.SymbolNames) == 0 {
		return nil, fmt.Errorf("grammar %q has no symbols", spec.grammar)
	}
	c := &compiled{spec: spec, lang: lang, factory: factory,
		info: make([]*symInfo, len(lang.SymbolNames)), ctors: map[string]bool{}}
	idx := indexSymbols(lang)
	at := func(sym ts.Symbol) *symInfo {
		if c.info[sym] == nil {
			c.info[sym] = &symInfo{}
		}
		return c.info[sym]
	}
	each := func(types string, f func(*symInfo)) {
		for _, sym := range idx.set(types) {
			f(at(sym))
		}
	}
	for i := range spec.defs {
		d := &defC{defRule: spec.defs[i], parents: idx.constraint(spec.defs[i].parent)}
		d.path = compilePath(d.name, idx)
		each(d.typ, func(si *symInfo) { si.defs = append(si.defs, d) })
	}
	for _, r := range spec.idents {
		ic := &identC{parents: idx.constraint(r.parent), field: r.field}
		each(r.typ, func(si *symInfo) { si.idents = append(si.idents, ic) })
	}
	for t, f := range spec.calls {
		each(t, func(si *symInfo) { si.isCall, si.calleeField = true, f })
	}
	for t, f := range spec.callees {
		each(t, func(si *symInfo) { si.isCallee, si.nextField = true, f })
	}
	for t, f := range spec.imports {
		each(t, func(si *symInfo) { si.imp = f })
	}
	for t, f := range spec.pkg {
		each(t, func(si *symInfo) { si.isPkg, si.pkgField = true, f })
	}
	for t, f := range spec.hooks {
		each(t, func(si *symInfo) { si.hook = f })
	}
	each(spec.comments, func(si *symInfo) { si.comment = true })
	each(spec.branches, func(si *symInfo) { si.branch = true })
	each(spec.wrappers, func(si *symInfo) { si.wrapper = true })
	each(spec.docSkip, func(si *symInfo) { si.docSkip = true })
	each(spec.sigSkip, func(si *symInfo) { si.sigSkip = true })
	each(spec.sigInto, func(si *symInfo) { si.sigInto = true })
	for _, t := range strings.Fields(spec.branchOps) {
		for _, sym := range idx.anon[t] {
			at(sym).branch = true
		}
	}
	for _, n := range splitTypes(spec.ctorNames) {
		c.ctors[n] = true
	}
	c.opParents = idx.constraint(spec.opParents)
	if spec.opParents == "" {
		c.opParents = nil
	}
	return c, nil
}

func compilePath(path string, idx symbolsByName) []pathStep {
	if path == "" {
		return nil
	}
	var out []pathStep
	for _, s := range strings.Fields(path) {
		switch {
		case s == ".":
			out = append(out, pathStep{self: true})
		case strings.HasPrefix(s, "@"):
			out = append(out, pathStep{types: idx.constraint(s[1:])})
		default:
			out = append(out, pathStep{field: s})
		}
	}
	return out
}

// kindOf returns the symbol info of a node, or nil.
func (c *compiled) kindOf(n *ts.Node) *symInfo {
	sym := n.Symbol()
	if int(sym) < len(c.info) {
		return c.info[sym]
	}
	return nil
}

// typeIs reports whether n has one of the "|"-separated types. It is for
// the rare paths (definitions, imports), not the per-node loop.
func (c *compiled) typeIs(n *ts.Node, types string) bool {
	if n == nil {
		return false
	}
	t := n.Type(c.lang)
	for types != "" {
		i := strings.IndexByte(types, '|')
		if i < 0 {
			return t == types
		}
		if t == types[:i] {
			return true
		}
		types = types[i+1:]
	}
	return false
}

// field returns n's child in the named field, or nil.
func (c *compiled) field(n *ts.Node, name string) *ts.Node {
	if n == nil {
		return nil
	}
	return n.ChildByFieldName(name, c.lang)
}

// firstOf returns n's first named child with one of the types.
func (c *compiled) firstOf(n *ts.Node, types string) *ts.Node {
	if n == nil {
		return nil
	}
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		if ch != nil && ch.IsNamed() && c.typeIs(ch, types) {
			return ch
		}
	}
	return nil
}

// hasToken reports whether a direct child of n (named or not) has one of
// the types; keywords such as "private" or "static" are anonymous tokens.
func (c *compiled) hasToken(n *ts.Node, types string) bool {
	if n == nil {
		return false
	}
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		if c.typeIs(n.Child(i), types) {
			return true
		}
	}
	return false
}

// follow walks a compiled name path from n.
func (c *compiled) follow(n *ts.Node, path []pathStep) *ts.Node {
	for _, st := range path {
		if n == nil {
			return nil
		}
		switch {
		case st.self:
		case st.field != "":
			n = n.ChildByFieldName(st.field, c.lang)
		default:
			n = firstNamedIn(n, st.types)
		}
	}
	return n
}

func firstNamedIn(n *ts.Node, set symSet) *ts.Node {
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		if ch != nil && ch.IsNamed() && set.has(ch.Symbol()) {
			return ch
		}
	}
	return nil
}

// text returns the source of n.
func textOf(src []byte, n *ts.Node) string {
	if n == nil {
		return ""
	}
	s, e := n.StartByte(), n.EndByte()
	if e < s || int(e) > len(src) {
		return ""
	}
	return string(src[s:e])
}

// unquote strips one layer of string delimiters: quotes, backticks or the
// angle brackets of a C system include.
func unquoteDelims(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		first, last := s[0], s[len(s)-1]
		if (first == '"' || first == '\'' || first == '`') && last == first || first == '<' && last == '>' {
			return s[1 : len(s)-1]
		}
	}
	return s
}

// squash removes all whitespace: import paths may be split over lines
// ("from a . b import c" is legal Python).
func squash(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), "")
}

// isUpper reports whether a name looks like a constant (MAX_SIZE).
func isUpper(name string) bool {
	letter := false
	for i := 0; i < len(name); i++ {
		b := name[i]
		switch {
		case b >= 'a' && b <= 'z':
			return false
		case b >= 'A' && b <= 'Z':
			letter = true
		}
	}
	return letter
}

// underscoreExported is the Python/Ruby/Lua/Bash convention: a leading
// underscore means private, except for dunder names (__init__), which are
// protocol hooks called from outside.
func underscoreExported(name string) bool {
	if !strings.HasPrefix(name, "_") {
		return true
	}
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
