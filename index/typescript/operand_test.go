package typescript

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestOperandAt evaluates the operand before a dot as a user typing
// leaves the line: the rest of it deleted, so that an open call's
// arguments on the next lines no longer balance (the enclosing function
// is then an ERROR node in the whole buffer's parse).
func TestOperandAt(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_ts.txtar"))
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	read := navtest.ReadUnder(root)
	for _, c := range []struct{ loc, use, want string }{
		{"src/flow.ts:13", "sub.", "Sub@src/flow.ts:1"},                         // a callback parameter
		{"src/flow.ts:13", "source.", "Obs@src/flow.ts:2"},                      // its other parameter
		{"src/flow.ts:16", "make().", "Obs@src/flow.ts:2"},                      // a declared return type
		{"src/flow.ts:16", "make().subscribe(new Sub()).", "Sub@src/flow.ts:1"}, // a method's
		{"src/flow.ts:22", "delegate?.", ""},                                    // an inline object type: no class to list
		{"src/app.ts:8", "u.", "User@src/models.ts:5 Base@src/models.ts:2 Named@src/models.ts:1"},
		{"src/models.ts:9", "this.", "User@src/models.ts:5 Base@src/models.ts:2 Named@src/models.ts:1"}, // and what it extends and implements
	} {
		file, src, dot, err := navtest.FixtureUse(root, c.loc, c.use)
		if err != nil {
			t.Fatal(err)
		}
		eol := bytes.IndexByte(src[dot:], '\n')
		src = slices.Concat(src[:dot+1], src[dot+eol:])
		op, ok := OperandAt(st, file, src, dot, read)
		var got []string
		for _, cl := range op.Classes {
			got = append(got, fmt.Sprintf("%s@%s:%d", className(t, read, cl), cl.Path, cl.Pos.Line+1))
		}
		if g := strings.Join(got, " "); g != c.want || ok != (c.want != "") {
			t.Errorf("%s %q: got %q (%v), want %q", c.loc, c.use, g, ok, c.want)
		}
	}
}

// TestOperandAtModule: a namespace import's members are its module's
// declarations.
func TestOperandAtModule(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_ts.txtar"))
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	src := []byte("import * as m from './models';\nm.\n")
	op, ok := OperandAt(st, "src/scratch.ts", src, bytes.IndexByte(src, '\n')+2, navtest.ReadUnder(root))
	if !ok || op.Module != "src/models.ts" {
		t.Errorf("got %+v (%v), want module src/models.ts", op, ok)
	}
}

func className(t *testing.T, read func(string) ([]byte, error), c ClassRef) string {
	t.Helper()
	b, err := read(c.Path)
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Split(b, []byte("\n"))[c.Pos.Line]
	name := line[c.Pos.Col:]
	end := bytes.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end >= 0 {
		name = name[:end]
	}
	return string(name)
}

// TestClosed closes what the text before a cursor leaves open, skipping
// strings, template literals and comments.
func TestClosed(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"f(a, () => {\n  x.", "f(a, () => {\n  x.\n})"},
		{"a[(b", "a[(b\n)]"},
		{"s = ')' + \"(\" + `${f({", "s = ')' + \"(\" + `${f({\n})}`"},
		{"// (\n/* { */ g(", "// (\n/* { */ g(\n)"},
		{"done()", "done()\n"},
	} {
		if got := string(closed([]byte(c.in))); got != c.want {
			t.Errorf("closed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
