package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestGoOperands checks the operand descriptors the extractor writes for
// x in x.F: one line per selector reference, "LINE:NAME DESCRIPTOR" ("-"
// for none, "import" for a package qualifier).
func TestGoOperands(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"receiver, params, chains", `package p
import "io"
func (s *Server) Serve(w io.Writer, n int) {
	s.conn.Close()
	w.Write(nil)
}`, "3:Writer import\n4:conn Server{}\n4:Close Server{}.conn\n5:Write io.Writer{}"},
		{"locals", `package p
import "os"
func f() {
	a := T{}
	b := &pkg.T{}
	c, err := os.Open("x")
	var d T
	e := NewT()
	g := a.m()
	a.X(); b.X(); c.X(); err.X(); d.X(); e.X(); g.X()
}`, "5:T pkg\n6:Open import\n9:m T{}\n10:X T{}\n10:X pkg.T{}\n10:X os.Open()\n10:X os.Open()[1]\n10:X T{}\n10:X NewT()\n10:X T{}.m()"},
		{"make and asserted calls", `package p
import "net/http"
func f(w http.ResponseWriter, n int) {
	xs := make([]T, n)
	xs[0].M()
	m := make(map[string]T)
	m["a"].M()
	c, _, err := w.(http.Hijacker).Hijack()
	c.Close()
	err.Error()
	h := w.(*H).Get().Inner
	h.M()
}`, "3:ResponseWriter import\n5:M []T{}[_]\n7:M []T{}[_]\n8:Hijacker import\n8:Hijack http.Hijacker{}\n9:Close http.Hijacker{}.Hijack()\n10:Error http.Hijacker{}.Hijack()[2]\n11:Get H{}\n11:Inner H{}.Get()\n12:M H{}.Get().Inner"},
		{"shadowing and scopes", `package p
import "net/url"
func f(x T) {
	url := U{}
	url.Parse()
	{
		x := V{}
		x.M()
	}
	x.M()
	h := func(x W) { x.M() }
	x = x.Next
}`, "5:Parse U{}\n8:M V{}\n10:M T{}\n11:M W{}\n12:Next T{}"},
		{"unknown", `package p
func f(xs []T, m map[string]T) {
	for _, x := range xs {
		x.M()
	}
	y := xs[0]
	y.M()
	switch z := v.(type) {
	case T:
		z.M()
	}
	w, ok := v.(*T)
	w.M()
	_ = ok
}`, "4:M []T{}[_]\n7:M []T{}[_]\n10:M T{}\n13:M T{}"},
		{"elements", `package p
func (p *Block) f(m map[string]T, ns Nodes) {
	p.Succs[0].Block()
	p.Succs[i+1].Block()
	m[k].M()
	ns[0].M()
	G[int](x).M()
	var bs []*Block
	for i, b := range bs {
		b.M(); i.M()
	}
	s := p.Succs[len(p.Succs)-1]
	s.M()
	p.Succs[0].b.Kind()
	new(big.Int).Exp()
	new(T).M()
}`, "3:Succs Block{}\n3:Block Block{}.Succs[_]\n4:Succs Block{}\n4:Block Block{}.Succs[_]\n5:M []T{}[_]\n6:M Nodes{}[_]\n7:M G()\n10:M []Block{}[_]\n10:M -\n12:Succs Block{}\n12:Succs Block{}\n13:M Block{}.Succs[_]\n14:Succs Block{}\n14:b Block{}.Succs[_]\n14:Kind Block{}.Succs[_].b\n15:Int big\n15:Exp big.Int{}\n16:M T{}"},
		{"var group", `package p
func f() {
	var (
		b   Builder
		n   int
		f   func(int) error
		m   = pkg.New()
	)
	b.M(); n.M(); m.M()
	var c T
	c.M()
}`, "7:New pkg\n9:M Builder{}\n9:M -\n9:M pkg.New()\n11:M T{}"},
		{"parallel assignment", `package p
func f() {
	n, b := g(1, "a,b"), new(T)
	p, q := x, pkg.New()
	r, s := F(), 0
	b.M(); q.M(); r.M(); s.M(); n.M()
}`, "4:New pkg\n6:M T{}\n6:M pkg.New()\n6:M F()\n6:M -\n6:M g()"},
		{"type switch", `package p
func f(n Node) {
	switch n := n.(type) {
	case *Name:
		n.M()
		if a && b {
			n.M() // case Name:
		}
	case *pkg.Call, *Sel:
		n.M()
	case nil:
		n.M()
	default:
		switch x := n.X.(type) {
		case T:
			x.M()
		}
		n.M()
	}
	n.M()
}`, "5:M Name{}\n7:M Name{}\n9:Call pkg\n10:M Node{}\n12:M Node{}\n14:X Node{}\n16:M T{}\n18:M Node{}\n20:M Node{}"},
		{"after a case or a label", `package p
func f(n int) {
	switch n {
	case 1:
		a := T{}
		a.M()
	default:
		b := U{}
		b.M()
	}
L:
	c := V{}
	c.M()
	goto L
}`, "6:M T{}\n9:M U{}\n13:M V{}"},
		{"func type with a qualified parameter type", `package p
import "io"
func f() {
	var zrd func(io.Reader) (io.ReadCloser, error)
	if zrd != nil {
		io.NewSectionReader()
	}
}`, "4:Reader import\n4:ReadCloser import\n6:NewSectionReader import"},
		{"parenthesized operands and assertions", `package p
import ("io"; "ir")
func f(px *Expr, r Ref, dest any) {
	(*px).Pos()
	(*r.Expr).Pos()
	dest.(io.Closer).Close()
	clo, ok := (*r.Expr).(*ir.ClosureExpr)
	clo.Op()
	g(x).M()
	(*Int64)(nil).M()
}`, "4:Pos Expr{}\n5:Expr Ref{}\n5:Pos Ref{}.Expr\n6:Closer import\n6:Close io.Closer{}\n7:Expr Ref{}\n7:ClosureExpr import\n8:Op ir.ClosureExpr{}\n9:M g()\n10:M Int64{}"},
		{"unsafe.Slice of a converted pointer", `package p
import "unsafe"
func f(m *Map) {
	dir := unsafe.Slice((**table)(m.dirPtr), m.dirLen)
	for _, t := range dir {
		t.clone()
	}
	unsafe.Slice(p, n)[0].M()
}`, "4:Slice import\n4:dirPtr Map{}\n4:dirLen Map{}\n6:clone []table{}[_]\n8:Slice import\n8:M -"},
		{"conversions to pointer types and parenthesized literals", `package p
import "ast"
func f(p unsafe.Pointer, fn func(int) T) {
	b := (*blk)(p)
	b.off.Add(1)
	(&ast.CommentGroup{List: l}).Text()
	(T{}).M()
	(fn)(1).M()
	c := (*ast.File)(p)
	c.Pos()
	(g(x)).M()
}`, "3:Pointer unsafe\n5:off blk{}\n5:Add blk{}.off\n6:CommentGroup import\n6:Text ast.CommentGroup{}\n7:M T{}\n8:M -\n9:File import\n10:Pos ast.File{}\n11:M -"},
		{"range over a literal, anonymous struct variables", `package p
func f() {
	for _, s := range []*obj.LSym{a, b} {
		s.M()
	}
	var x struct {
		// counters (a) {
		before, after int64 // not (i
		i      Int64
		p      *pkg.T
	}
	x.i.Store()
	x.p.M()
	x.q.M()
}`, "3:LSym obj\n4:M obj.LSym{}\n10:T pkg\n12:i -\n12:Store Int64{}\n13:p -\n13:M pkg.T{}\n14:q -\n14:M -"},
		{"calls of local function literals", `package p
func f() {
	mk := func(name string, k Kind) *loader.SymbolBuilder {
		return nil
	}
	two := func() (T, error) { return T{}, nil }
	named := func() (t T, err error) { return }
	x := mk("a", 1)
	x.AddBytes()
	y, err := two()
	y.M(); err.Error()
	named().M()
	mk("b", 2).f.M()
}`, "3:SymbolBuilder loader\n9:AddBytes loader.SymbolBuilder{}\n11:M T{}\n11:Error error{}\n12:M -\n13:f loader.SymbolBuilder{}\n13:M loader.SymbolBuilder{}.f"},
		{"calls of func-typed parameters and variables", `package p
func f(hash func() fips.Hash, two func() (T, error)) {
	size := hash().Size()
	each(func(h func() T) { h().M() })
	two().M()
}`, "2:Hash fips\n3:Size fips.Hash{}\n4:M T{}\n5:M -"},
		{"type parameters and function values", `package p
func g[H hash.Hash, K comparable](h H, mk func() H, k K, hs []H) {
	h.Size()
	mk().Size()
	k.M()
	hs[0].Size()
	newHash := sha256.New
	newHash().Size()
	sum := h.Sum
	sum().M()
}`, "2:Hash hash\n3:Size hash.Hash{}\n4:Size hash.Hash{}\n5:M -\n6:Size []hash.Hash{}[_]\n7:New sha256\n8:Size sha256.New()\n9:Sum hash.Hash{}\n10:M hash.Hash{}.Sum()"},
		{"nested slices and maps", `package p
func f(stack [][]*ast.Ident, files map[string]*ast.File, n int) {
	for _, id := range stack[n] {
		id.Pos()
	}
	for _, file := range files {
		for _, id := range file.Unresolved {
			id.Pos()
		}
	}
	var byName map[string][]T
	byName["a"][0].M()
	vs := []*Value{
		A(),
	}
	for _, v := range vs {
		v.String()
	}
	ms := map[string]Value{}
	ms["a"].String()
}`, "2:Ident ast\n2:File ast\n4:Pos [][]ast.Ident{}[_][_]\n7:Unresolved []ast.File{}[_]\n8:Pos []ast.File{}[_].Unresolved[_]\n12:M [][]T{}[_][_]\n17:String []Value{}[_]\n20:String []Value{}[_]"},
		{"package-level and calls", `package p
var global = T{}
func f() {
	global.M()
	F().M()
	pkg.G().M()
}`, "4:M global\n5:M F()\n6:G pkg\n6:M pkg.G()"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := extractGo("p.go", []byte(c.src), true)
			var got []string
			for _, ref := range r.Refs {
				if !ref.Sel {
					continue
				}
				d := "-"
				switch {
				case ref.Import > 0:
					d = "import"
				case ref.Operand > 0:
					d = r.Operands[ref.Operand-1]
				}
				got = append(got, fmt.Sprintf("%d:%s %s", ref.Pos.Line+1, ref.Name, d))
			}
			if g := strings.Join(got, "\n"); g != c.want {
				t.Errorf("got\n%s\nwant\n%s", g, c.want)
			}
		})
	}
}

// BenchmarkGoOperandsGenerated extracts a generated-style file: thousands
// of functions declaring the same few locals (cmd/compile's ssa rewrite
// tables are 1.9 MB of these), where a use must not look through every
// earlier function's declarations of its name.
func BenchmarkGoOperandsGenerated(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("package p\n")
	for i := range 4000 {
		fmt.Fprintf(&sb, "func rewrite%d(v *Value) bool {\n\tb := v.Block\n\tx := v.Args[0]\n\tif x.Op != OpAdd {\n\t\treturn false\n\t}\n\tv.reset(OpSub)\n\tv.AddArg2(x, b.Func.ConstInt(1))\n\treturn true\n}\n", i)
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		extractGo("p.go", src, true)
	}
}

// TestGoOperandValueMemo checks that reusing a local's value descriptor
// does not change what the depth limit cuts: a12 and a8 are first reached
// through chains longer than the limit, after shallower uses memoized the
// locals they go through, and stay undescribed exactly as when every use
// evaluates afresh.
func TestGoOperandValueMemo(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("package p\nfunc f() {\n\ta0 := T{}\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&sb, "\ta%d := a%d.m()\n", i, i-1)
	}
	for _, k := range []int{3, 5, 6, 7, 12, 4, 8, 2} {
		fmt.Fprintf(&sb, "\ta%d.X()\n", k)
	}
	sb.WriteString("}\n")
	r := extractGo("p.go", []byte(sb.String()), true)
	var got []string
	for _, ref := range r.Refs {
		if ref.Name != "X" {
			continue
		}
		d := "-"
		if ref.Operand > 0 {
			d = r.Operands[ref.Operand-1]
		}
		got = append(got, fmt.Sprintf("%d %s", ref.Pos.Line+1, d))
	}
	want := []string{
		"16 T{}.m().m().m()",
		"17 T{}.m().m().m().m().m()",
		"18 T{}.m().m().m().m().m().m()",
		"19 T{}.m().m().m().m().m().m().m()",
		"20 -",
		"21 T{}.m().m().m().m()",
		"22 -",
		"23 T{}.m().m()",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
}

// TestGoLiteralKeys checks which composite literal keys get their
// literal's type: T{F: v}, &pkg.T{..., F: v} and keys on their own lines
// do; map, slice and anonymous literals, labels, switch cases, and
// blocks of headers and bodies whose last token is a name do not.
func TestGoLiteralKeys(t *testing.T) {
	src := `package p
import "exithook"
func f(ok bool) T {
	exithook.Add(exithook.Hook{F: g, RunOnFailure: true})
	x := &T{
		A: 1,
		// a comment
		B: "b,{",
	}
	m := map[string]T{k: T{C: 1}}
	s := []T{{D: 1}}
	if ok {
	L:
		goto L
	}
	switch ok {
	case a, b:
	}
	for _, v := range xs {
	E:
	}
	go func() {
	G:
	}()
	return T{H: s[i:j]}
}
`
	r := extractGo("p.go", []byte(src), true)
	var got []string
	for _, ref := range r.Refs {
		if !ref.Sel && ref.Operand > 0 {
			got = append(got, fmt.Sprintf("%d:%s %s", ref.Pos.Line+1, ref.Name, r.Operands[ref.Operand-1]))
		}
	}
	want := "4:F exithook.Hook{}\n4:RunOnFailure exithook.Hook{}\n6:A T{}\n8:B T{}\n10:C T{}\n25:H T{}"
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("got\n%s\nwant\n%s", g, want)
	}
}
