// Package extract turns the bytes of one source file into index records:
// symbols, identifier references, imports and TODO markers.
//
// One Extractor exists per language. Go files use the standard library's
// go/parser (about 70x faster here than a tree-sitter Go grammar); every other
// language uses gotreesitter through table-driven tree walks (see
// treesitter.go). Extractors are pure functions of their input: they never
// touch the file system and are safe for concurrent use by many goroutines.
//
// Positions are 0-based lines and 0-based UTF-8 byte columns. Converting to
// UTF-16 or 1-based display columns is the caller's job, because only the
// caller knows the client's position encoding.
package extract

import (
	"context"
	"errors"
	"time"
)

// Pos is a position in a file: 0-based line, 0-based byte column.
type Pos struct {
	Line uint32
	Col  uint32
}

// Less reports whether p comes before q.
func (p Pos) Less(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// Range is a half-open span [Start, End).
type Range struct {
	Start Pos
	End   Pos
}

// Contains reports whether r encloses s.
func (r Range) Contains(s Range) bool {
	return !s.Start.Less(r.Start) && !r.End.Less(s.End)
}

// SymbolKind uses LSP's SymbolKind numbering so the language server can pass
// it through unchanged.
type SymbolKind uint8

// The LSP 3.18 symbol kinds.
const (
	KindFile          SymbolKind = 1
	KindModule        SymbolKind = 2
	KindNamespace     SymbolKind = 3
	KindPackage       SymbolKind = 4
	KindClass         SymbolKind = 5
	KindMethod        SymbolKind = 6
	KindProperty      SymbolKind = 7
	KindField         SymbolKind = 8
	KindConstructor   SymbolKind = 9
	KindEnum          SymbolKind = 10
	KindInterface     SymbolKind = 11
	KindFunction      SymbolKind = 12
	KindVariable      SymbolKind = 13
	KindConstant      SymbolKind = 14
	KindString        SymbolKind = 15
	KindNumber        SymbolKind = 16
	KindBoolean       SymbolKind = 17
	KindArray         SymbolKind = 18
	KindObject        SymbolKind = 19
	KindKey           SymbolKind = 20
	KindNull          SymbolKind = 21
	KindEnumMember    SymbolKind = 22
	KindStruct        SymbolKind = 23
	KindEvent         SymbolKind = 24
	KindOperator      SymbolKind = 25
	KindTypeParameter SymbolKind = 26
)

var kindNames = [...]string{
	KindFile: "file", KindModule: "module", KindNamespace: "namespace",
	KindPackage: "package", KindClass: "class", KindMethod: "method",
	KindProperty: "property", KindField: "field", KindConstructor: "constructor",
	KindEnum: "enum", KindInterface: "interface", KindFunction: "function",
	KindVariable: "variable", KindConstant: "constant", KindString: "string",
	KindNumber: "number", KindBoolean: "boolean", KindArray: "array",
	KindObject: "object", KindKey: "key", KindNull: "null",
	KindEnumMember: "enummember", KindStruct: "struct", KindEvent: "event",
	KindOperator: "operator", KindTypeParameter: "typeparameter",
}

// String returns the lower-case LSP name of the kind ("function", "class").
func (k SymbolKind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// KindByName is the inverse of SymbolKind.String; ok is false for unknown
// names.
func KindByName(name string) (SymbolKind, bool) {
	for k, n := range kindNames {
		if n != "" && n == name {
			return SymbolKind(k), true
		}
	}
	return 0, false
}

// Symbol is one definition in a file.
type Symbol struct {
	Name string
	Kind SymbolKind
	// Container is the dotted qualified name of the enclosing definitions
	// ("Server", "pkg.Outer.Inner"); empty at top level. For Go methods it is
	// the receiver type name.
	Container string
	// Parent is the index in Result.Symbols of the enclosing symbol, or -1.
	// Parents always come before their children.
	Parent int32
	// Range covers the whole definition; Selection covers just the name.
	Range     Range
	Selection Range
	// Signature is the declaration's first line, trimmed and capped.
	Signature string
	// Doc is the first non-empty line of the doc comment, if any.
	Doc      string
	Exported bool
	// Complexity is the cyclomatic complexity of a function body (1 plus the
	// number of branch points); 0 when not computed.
	Complexity uint16
}

// Ref is one identifier occurrence. Declarations are included; the index
// tells them apart by comparing with symbol selection ranges.
type Ref struct {
	Name string
	Pos  Pos
	// Call is set when the identifier is the callee of a call expression.
	Call bool
	// Sel is set when the identifier follows a "." (Go: x.F, pkg.F).
	Sel bool
	// Import, for a selector whose qualifier is a name one of the file's
	// imports binds (Go: pkg.F), is 1 + that import's index in
	// Result.Imports; 0 otherwise.
	Import uint16
	// Operand, for a selector whose operand's type the syntax describes
	// (Go: x.F with x a receiver, parameter, local or package-level
	// variable, or a chain of fields and calls on one), is 1 + the index
	// of that operand's descriptor in Result.Operands; 0 otherwise.
	Operand uint32
}

// Import is one import/include/require as written in the source.
type Import struct {
	// Path is the import string without quotes ("fmt", "./util", "os.path").
	Path string
	// Name is the local name the import is given explicitly (Go's
	// `import h "net/http"`, "." or "_"); empty when the language or the
	// file gives none.
	Name string
	Line uint32
}

// Todo is a TODO/FIXME/HACK/XXX marker in a comment.
type Todo struct {
	Tag  string // TODO, FIXME, HACK or XXX
	Text string // the rest of the line, trimmed
	Line uint32
}

// Result is everything extracted from one file.
type Result struct {
	// Package is the package/module name the file declares, if the language
	// has one (Go's package clause, Java's package, C#'s namespace).
	Package string
	Symbols []Symbol
	Refs    []Ref
	Imports []Import
	Todos   []Todo
	// Operands is the file's table of operand descriptors (Go: see
	// golang_locals.go), which Ref.Operand indexes.
	Operands []string
	// Build is a Go file's //go:build expression (canonical form), "" for
	// none.
	Build string
	// Partial is non-empty when extraction stopped early or the file did not
	// parse cleanly; it says why. The records returned are still valid.
	Partial string
}

// Options bound the work one file may cost.
type Options struct {
	// Budget is the wall-clock time one file's parse may take; zero means
	// DefaultBudget.
	Budget time.Duration
	// Describe holds the annotators to run after the walk, by tree-sitter
	// language name ("python"); nil runs none.
	Describe map[string]Annotator
	// TreeSitter skips the language's scanner (RegisterScanner), for the
	// comparisons that check a scanner against the tree-sitter path.
	TreeSitter bool
	// WholeFiles has tree-sitter read every file a scanner does not read
	// whole, instead of only the regions it could not read (Regions).
	WholeFiles bool
}

// DefaultBudget is the budget of a file of unknown size. Callers that know
// the size should use BudgetFor.
const DefaultBudget = 2 * time.Second

// BudgetFor scales the parse budget with the input: 250 ms plus 10 ms per
// KiB, i.e. it allows ~100 KB/s. gotreesitter's slowest grammar on real
// code is C at ~110 KB/s (Python runs at ~0.9 MB/s), so ordinary files
// finish, while pathological ones stop instead of costing seconds each.
// The base covers a collector pause landing in a small file's parse. Files
// whose time goes to gotreesitter's reparses after a complete first pass
// (GOROOT's regexp/testdata/testregex.c, 52 KB: ~0.1 s, then ~0.6 s of
// reparsing) are cut earlier, by softBudgetFor.
func BudgetFor(size int) time.Duration {
	return 250*time.Millisecond + time.Duration(size/1024)*10*time.Millisecond
}

func (o Options) budget() time.Duration {
	if o.Budget <= 0 {
		return DefaultBudget
	}
	return o.Budget
}

// Extractor extracts records from the source of one file. It must not panic
// on any input and must return within roughly opts.Budget (a tree-sitter
// file cut in its first pass by softBudgetFor is parsed again under the
// whole budget, so it may take that much CPU time longer).
type Extractor interface {
	Extract(ctx context.Context, path string, src []byte, opts Options) (*Result, error)
}

// ErrUnsupported is returned by For-driven extraction when no extractor
// exists for the language.
var ErrUnsupported = errors.New("no extractor for language")

var registry = map[string]Extractor{}

// register installs an extractor for a language name. It is called from
// init functions only, so the map needs no lock.
func register(lang string, e Extractor) { registry[lang] = e }

// For returns the extractor for a language name as reported by
// workspace.DetectLanguage, or nil.
func For(lang string) Extractor { return registry[lang] }

// Languages lists the languages that have an extractor.
func Languages() []string {
	out := make([]string, 0, len(registry))
	for l := range registry {
		out = append(out, l)
	}
	return out
}
