package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// Members of Go types: which x.F occurrences refer to a method or field.
//
// The extractor stores, with each selector occurrence whose operand the
// syntax describes, an operand descriptor (index/extract/golang_locals.go):
// a Go expression over package-level names and imports whose type is the
// operand's ("Server{}", "os.Open()[1]", "T{}.conn"). A references query
// evaluates the descriptors of the candidate occurrences with the same
// inference definitions use (this package), once per distinct
// descriptor and directory, and compares the operand's type U with the
// declaration's type T:
//
//   - U is T, or U has no member F of its own and embeds T's: a reference.
//   - U declares its own F: not one, unless one of T and U is an interface
//     the other implements (method names compared, as gopls's
//     references do through interface satisfaction; the builtin error
//     counts as an interface with Error).
//   - the descriptor does not evaluate (a type the index does not know, a
//     chain too long): Uncertain, like an occurrence with no descriptor.
//
// Recording descriptors instead of parsing candidate files at query time
// keeps a query over 100k occurrences to a few thousand small evaluations
// (measured in docs/performance.md's Go navigation section), while the extractor only
// reads tokens it already scans.
//
// Until the next write, the store keeps across queries the evaluated
// types and what evaluations read (decoded symbol records, name-index
// candidates, candidate files' operand tables), and a query judges each
// of a file's descriptors once however many occurrences share it: on
// GOROOT/src the first queries of seven common method names (String,
// Error, Len, Close, Pos, Op, Type) took 0.53 s of CPU before and 0.32 s
// after, the next five of each 1.08 s before and 0.27 s after
// (TestDeclReferencesAfterEdit checks that a write empties it all).

// memberFilter judges selector occurrences for one method or field.
type memberFilter struct {
	st   *index.Store
	def  index.NameHit
	dir  string
	defs *lookupCache // shared by the evaluations of one query
	// verdicts by directory, descriptor and (for an import-qualified
	// descriptor) the import path its qualifier binds; byType by the
	// operand type, pinned to its directory.
	verdicts map[string]memberVerdict
	byType   map[goType]memberVerdict
	files    map[string]*index.FileDetail
	// fileVerdicts[p][i] is 1 + the verdict on p's descriptor i+1, 0
	// before it is judged.
	fileVerdicts map[string][]uint8
	ifaces       map[goType][]string // method names of interface types; nil for other types
	defIface     []string            // def's container's methods when it is an interface
	aliases      map[goType]bool     // declrefs_embed.go
	isAlone      *bool
	gen          uint64 // of the store's operand type cache when the query began
}

// alone reports whether def is the only member of its name an unknown
// x.F can mean: every other type's member of that name is a method that
// corresponds to it through an interface.
func (m *memberFilter) alone() bool {
	if m.isAlone != nil {
		return *m.isAlone
	}
	alone := true
	sites, err := m.st.DefinitionSites(m.def.Name)
	if err != nil {
		alone = false
	}
	for _, h := range sites {
		if !alone {
			break
		}
		if h.Container == "" || h.Name != m.def.Name || !strings.HasSuffix(h.Path, ".go") ||
			(h.Path == m.def.Path && h.Selection.Start == m.def.Selection.Start) {
			continue
		}
		alone = m.def.Kind == extract.KindMethod && h.Kind == extract.KindMethod &&
			m.corresponds(goType{name: h.Container, dir: path.Dir(h.Path)})
	}
	m.isAlone = &alone
	return alone
}

type memberVerdict uint8

const (
	verdictUncertain memberVerdict = iota
	verdictKeep
	verdictDrop
)

func newMemberFilter(st *index.Store, def index.NameHit) *memberFilter {
	m := &memberFilter{st: st, def: def, dir: path.Dir(def.Path), defs: newLookupCache(),
		verdicts: map[string]memberVerdict{}, byType: map[goType]memberVerdict{}, files: map[string]*index.FileDetail{}, fileVerdicts: map[string][]uint8{}, ifaces: map[goType][]string{}}
	m.gen = operandTypesOf(st).generation(st.WriteGen())
	m.defs.gen, m.defs.shared = m.gen, operandTypesOf(st)
	m.defIface = m.interfaceMethods(goType{name: def.Container, dir: m.dir})
	return m
}

func (m *memberFilter) resolver() *goTypeResolver {
	return &goTypeResolver{st: m.st, cache: m.defs}
}

func (m *memberFilter) detail(p string) *index.FileDetail {
	if d, ok := m.files[p]; ok {
		return d
	}
	if d, ok := operandTypesOf(m.st).detail(p); ok {
		m.files[p] = d
		return d
	}
	d, err := m.st.Detail(p)
	if err != nil {
		d = index.FileDetail{}
	}
	m.files[p] = &d
	operandTypesOf(m.st).putDetail(p, &d, m.gen)
	return &d
}

// verdict judges the occurrence of the member in file p whose operand has
// descriptor operand (1-based in p's table).
func (m *memberFilter) verdict(p string, operand uint32) memberVerdict {
	if operand == 0 {
		return verdictUncertain
	}
	det := m.detail(p)
	if int(operand) > len(det.Operands) {
		return verdictUncertain
	}
	// Occurrences of a file share its few descriptors: judge each once,
	// without building its key again.
	fv := m.fileVerdicts[p]
	if fv == nil {
		fv = make([]uint8, len(det.Operands))
		m.fileVerdicts[p] = fv
	}
	if v := fv[operand-1]; v != 0 {
		return memberVerdict(v - 1)
	}
	v := m.judgeOperand(p, det, det.Operands[operand-1])
	fv[operand-1] = uint8(v) + 1
	return v
}

// judgeOperand judges descriptor desc of file p.
func (m *memberFilter) judgeOperand(p string, det *index.FileDetail, desc string) memberVerdict {
	dir := path.Dir(p)
	key := dir + "\x00" + desc
	q := strings.TrimPrefix(desc, "[]") // []q.T{}[_]: q's element
	if i := strings.IndexAny(q, ".({["); i >= 0 {
		q = q[:i]
	}
	var qual index.ImportPath
	for _, im := range det.Imports {
		if extract.GoImportName(im.Path, im.Name) == q {
			qual = index.ImportPath{Path: im.Path}
			key += "\x00" + im.Path
		}
	}
	if v, ok := m.verdicts[key]; ok {
		return v
	}
	var e ast.Expr
	if _, cached := operandTypesOf(m.st).get(key); !cached {
		var err error
		if e, err = parser.ParseExpr(desc); err != nil {
			m.verdicts[key] = verdictUncertain
			return verdictUncertain
		}
	}
	fc := &fileCtx{dir: dir, imports: map[string]index.ImportPath{}}
	if qual.Path != "" {
		fc.imports[q] = qual
	}
	v := m.judge(key, fc, e)
	m.verdicts[key] = v
	return v
}

func (m *memberFilter) judge(key string, fc *fileCtx, e ast.Expr) memberVerdict {
	t, ok := operandTypesOf(m.st).get(key)
	if !ok {
		r := m.resolver()
		t, ok = descType(r, fc, e)
		if ok && t.dir == "" && t != builtinError {
			t = m.resolveDir(m.resolver(), t)
		}
		if ok {
			t = m.unalias(t)
		}
		if !ok {
			t = goType{}
		}
		operandTypesOf(m.st).put(key, t, m.gen)
	}
	if t == (goType{}) {
		return verdictUncertain
	}
	if v, ok := m.byType[t]; ok {
		return v
	}
	v := m.judgeType(t)
	m.byType[t] = v
	return v
}

// judgeType judges an operand of type t.
func (m *memberFilter) judgeType(t goType) memberVerdict {
	if t.name == m.def.Container && t.inDir(m.dir) {
		return verdictKeep
	}
	if t == builtinError {
		if m.def.Name == "Error" && m.def.Kind == extract.KindMethod {
			return verdictKeep
		}
		return verdictDrop
	}
	r := m.resolver()
	hits := r.lookup(m.def.Name, t.name, t.inDir)
	if len(hits) == 0 {
		// Promoted through an embedded field, or a type the index
		// does not know.
		var ok bool
		if hits, ok = r.member(t, m.def.Name, 0); !ok {
			return verdictUncertain
		}
	}
	for _, h := range hits {
		if h.Path == m.def.Path && h.Symbol.Selection.Start == m.def.Selection.Start {
			return verdictKeep
		}
		if m.def.Kind == extract.KindMethod && h.Symbol.Kind == extract.KindMethod {
			if u := (goType{name: h.Symbol.Container, dir: path.Dir(h.Path)}); m.corresponds(u) || m.embeddedAlias(u) {
				return verdictKeep
			}
		}
	}
	if m.defIface != nil && m.def.Kind == extract.KindMethod && len(hits) > 0 && hits[0].Symbol.Kind == extract.KindMethod &&
		m.implementsPromoted(t, m.defIface) {
		// t implements def's interface with methods some of which it
		// gets from embedded types (ir.CallExpr's Op from miniNode):
		// the method found is not t's own, but t's method set is.
		return verdictKeep
	}
	return verdictDrop
}

// implementsPromoted reports whether t's method set, promoted methods
// included, has every name in methods.
func (m *memberFilter) implementsPromoted(t goType, methods []string) bool {
	for _, mn := range methods {
		// A resolver per method: one's step budget covers one
		// method's search, not an interface's worth.
		hits, _ := m.resolver().member(t, mn, 0)
		if !slices.ContainsFunc(hits, func(h index.SymbolHit) bool { return h.Symbol.Kind == extract.KindMethod }) {
			return false
		}
	}
	return true
}

// corresponds reports whether the method of type u named like def
// corresponds to def through interface satisfaction: u is an interface
// def's type implements, or def's type is an interface u implements.
func (m *memberFilter) corresponds(u goType) bool {
	if ms := m.interfaceMethods(u); ms != nil && m.implements(m.def.Container, m.dir, ms) {
		return true
	}
	return m.defIface != nil && m.implements(u.name, u.dir, m.defIface)
}

// operandTypeCache keeps the types operand descriptors evaluated to (the
// zero goType for none), keyed like memberFilter.verdicts: they do not
// depend on the member asked about, so a server's second query on a
// common name (String, Close) evaluates almost nothing. Any change to the
// store (Store.WriteGen) empties it at the next query. Safe for
// concurrent use.
type operandTypeCache struct {
	mu  sync.Mutex
	m   map[string]goType
	gen uint64 // the store's write generation the entries were read at
	// The symbols and name-index candidates evaluations read, kept
	// across queries too: a common name's first query reads the same
	// few hundred type declarations (fmt, io, os...) as the next one.
	syms  map[string][]extract.Symbol
	cands map[string][]index.NameEntry
	dets  map[string]*index.FileDetail // candidate files' operand tables and imports
}

func (c *operandTypeCache) detail(p string) (*index.FileDetail, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dets[p]
	return d, ok
}

func (c *operandTypeCache) putDetail(p string, d *index.FileDetail, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.dets == nil || len(c.dets) >= maxCachedFiles {
		c.dets = make(map[string]*index.FileDetail, 256)
	}
	c.dets[p] = d
}

// operandTypesKey is the key of a store's operand type cache
// (index.Store.Attach).
type operandTypesKey struct{}

// operandTypesOf is the store's operand type cache, made on first use; it
// lives as long as the store.
func operandTypesOf(s *index.Store) *operandTypeCache {
	return s.Attach(operandTypesKey{}, func() any { return new(operandTypeCache) }).(*operandTypeCache)
}

// buildOf is the //go:build expression of the file p.
func buildOf(s *index.Store, p string) string {
	h, _ := s.Header(p)
	return h.Build
}

// maxCachedFiles bounds the decoded files and names kept (tens of MB at
// most on GOROOT/src).
const maxCachedFiles = 8192

func (c *operandTypeCache) symbols(p string) ([]extract.Symbol, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	syms, ok := c.syms[p]
	return syms, ok
}

func (c *operandTypeCache) putSymbols(p string, syms []extract.Symbol, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.syms == nil || len(c.syms) >= maxCachedFiles {
		c.syms = make(map[string][]extract.Symbol, 256)
	}
	c.syms[p] = syms
}

func (c *operandTypeCache) candidates(name string) ([]index.NameEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cands, ok := c.cands[name]
	return cands, ok
}

func (c *operandTypeCache) putCandidates(name string, cands []index.NameEntry, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.cands == nil || len(c.cands) >= maxCachedFiles {
		c.cands = make(map[string][]index.NameEntry, 256)
	}
	c.cands[name] = cands
}

// maxOperandTypes bounds the cache (a few MB); past it, it starts over.
const maxOperandTypes = 1 << 16

func (c *operandTypeCache) get(key string) (goType, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[key]
	return t, ok
}

// generation is what a query reads before its first evaluation and
// passes to put, so that a type evaluated across a write is not kept:
// the store's write generation now (storeGen), the entries of an older
// one dropped.
func (c *operandTypeCache) generation(storeGen uint64) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if storeGen != c.gen {
		c.m, c.syms, c.cands, c.dets = nil, nil, nil, nil
		c.gen = storeGen
	}
	return c.gen
}

func (c *operandTypeCache) put(key string, t goType, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.m == nil || len(c.m) >= maxOperandTypes {
		c.m = make(map[string]goType, 1024)
	}
	c.m[key] = t
}

// builtinError is the predeclared error interface.
var builtinError = goType{name: "error"}

// descType evaluates an operand descriptor in its file's context.
func descType(r *goTypeResolver, fc *fileCtx, e ast.Expr) (goType, bool) {
	switch x := e.(type) {
	case *ast.IndexExpr: // result i of a call, or D[_], an element of D
		if id, ok := x.Index.(*ast.Ident); ok && id.Name == "_" {
			return r.elemType(fc, x.X, 0)
		}
		c, ok := x.X.(*ast.CallExpr)
		lit, ok2 := x.Index.(*ast.BasicLit)
		if !ok || !ok2 {
			return goType{}, false
		}
		i, err := strconv.Atoi(lit.Value)
		if err != nil {
			return goType{}, false
		}
		return r.callType(fc, nil, c, i, 0)
	case *ast.CompositeLit:
		if id, ok := x.Type.(*ast.Ident); ok && id.Name == "error" {
			return builtinError, true
		}
	case *ast.Ident:
		// A package-level variable, or a type (T.Method).
		if t, ok := r.exprType(fc, nil, x, 0); ok {
			return t, true
		}
		return r.typeNamed(x.Name, goType{dir: fc.dir})
	}
	return r.exprType(fc, nil, e, 0)
}

// interfaceMethods returns the method names of t when it is an interface
// type the index knows (embedded interfaces included), else nil.
func (m *memberFilter) interfaceMethods(t goType) []string {
	if ms, ok := m.ifaces[t]; ok {
		return ms
	}
	m.ifaces[t] = nil // cycles
	var out []string
	r := m.resolver()
	for _, decl := range r.lookup(t.name, "", t.inDir, extract.KindInterface) {
		syms, err := r.symbols(decl.Path)
		if err != nil {
			continue
		}
		fc := r.storedFileContext(decl.Path)
		out = []string{}
		for _, s := range syms {
			if s.Container != t.name {
				continue
			}
			switch s.Kind {
			case extract.KindMethod:
				out = append(out, s.Name)
			case extract.KindInterface:
				f, ok := parseFieldSig(s.Signature)
				if !ok {
					continue
				}
				et, ok := typeExpr(fc, f.Type)
				if !ok {
					continue
				}
				if et.dir == "" {
					et = m.resolveDir(r, et)
				}
				out = append(out, m.interfaceMethods(et)...)
			}
		}
		break
	}
	m.ifaces[t] = out
	return out
}

// unalias follows type aliases (type FileInfo = fs.FileInfo) to the
// type they name, a few hops at most.
func (m *memberFilter) unalias(t goType) goType {
	for range 3 {
		r := m.resolver()
		decls := r.lookup(t.name, "", t.inDir)
		if len(decls) == 0 {
			return t
		}
		sig := strings.TrimSpace(decls[0].Symbol.Signature)
		if !strings.HasPrefix(sig, "type ") {
			sig = "type " + sig
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+sig+"\n", parser.SkipObjectResolution)
		if err != nil || len(f.Decls) == 0 {
			return t
		}
		gd, ok := f.Decls[0].(*ast.GenDecl)
		if !ok || len(gd.Specs) == 0 {
			return t
		}
		ts, ok := gd.Specs[0].(*ast.TypeSpec)
		if !ok || !ts.Assign.IsValid() {
			return t
		}
		u, ok := typeExpr(r.storedFileContext(decls[0].Path), ts.Type)
		if !ok {
			return t
		}
		if u.dir == "" && u != builtinError {
			u = m.resolveDir(m.resolver(), u)
		}
		t = u
	}
	return t
}

// resolveDir pins an import-relative type to the directory declaring it,
// so that it can key a map. It reads the name index only.
func (m *memberFilter) resolveDir(r *goTypeResolver, t goType) goType {
	if d, ok := r.declDir(t); ok {
		return goType{name: t.name, dir: d}
	}
	return t
}

// implements reports whether the type named name in dir has a method of
// every name in methods, its own or promoted from an embedded type (T
// implements io.ReadWriter with a Read of its own and the Write of an
// embedded bufio.Writer, and gopls counts x.Read on an io.ReadWriter as
// a reference to T's Read).
func (m *memberFilter) implements(name, dir string, methods []string) bool {
	return len(methods) > 0 && m.implementsPromoted(goType{name: name, dir: dir}, methods)
}
