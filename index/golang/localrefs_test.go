package golang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
)

// TestGoLocalReferences checks the references of locals: "LINE:COL" of
// each (1-based, "*" marks a declaration), for the identifier at the
// first "@" of the source (removed before parsing); "-" when the name
// is not a local.
func TestGoLocalReferences(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"shadowed in if", `package p
func f() error {
	err := g()
	if err := h(); err != nil {
		return err
	}
	return @err
}`, "3:2* 7:9"},
		{"the if's own", `package p
func f() error {
	err := g()
	if err := h(); @err != nil {
		return err
	}
	return err
}`, "4:5* 4:17 5:10"},
		{"redeclared in the same block, used in a closure", `package p
func f() {
	a, err := g()
	b, err := g()
	func() { _ = err }()
	_, _ = a, @err
}`, "3:5* 4:5* 5:15 6:12"},
		{"parameter, not a field or key of that name", `package p
func f(x T) {
	x.x = T{x: 1}
	_ = @x
}`, "2:8* 3:2 4:6"},
		{"range value, var", `package p
func f(xs []int) {
	var n int
	for _, v := range xs {
		n += @v
	}
	_ = n
}`, "4:9* 5:8"},
		{"closure parameter shadows", `package p
func f(x int) {
	g := func(x int) int { return @x }
	_ = g(x)
}`, "3:12* 3:32"},
		{"package-level name", `package p
var err error
func f() { _ = @err }`, "-"},
		{"import name", `package p
import (
	"fmt"
	str "strings"
)
func f(fmt int) { _ = fmt }
func g() { fmt.Println(@str.ToUpper(""), fmt.Sprint()) }`, "4:2* 7:24"},
		{"import qualifier", `package p
import "fmt"
func f(fmt int) { _ = fmt }
func g() { @fmt.Println(fmt.Sprint()) }`, "4:12 4:24"},
	} {
		t.Run(c.name, func(t *testing.T) {
			off := strings.IndexByte(c.src, '@')
			src := []byte(c.src[:off] + c.src[off+1:])
			name := identAt(src, off)
			hits, ok := LocalReferences((&index.Store{}), "p/p.go", src, off, name)
			got := "-"
			if ok {
				var out []string
				for _, h := range hits {
					s := fmt.Sprintf("%d:%d", h.Pos.Line+1, h.Pos.Col+1)
					if h.Decl {
						s += "*"
					}
					out = append(out, s)
				}
				got = strings.Join(out, " ")
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func identAt(src []byte, off int) string {
	end := off
	for end < len(src) && (src[end] == '_' || 'a' <= src[end] && src[end] <= 'z' || 'A' <= src[end] && src[end] <= 'Z') {
		end++
	}
	return string(src[off:end])
}
