package complete

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestBuildSyntaxMembers: after x. in Python and TypeScript, the members of
// x's class (constructed, a module, or self).
func TestBuildSyntaxMembers(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "pyshop.txtar"))
	st, err := nav.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Index(t.Context(), root, index.Options{}); err != nil {
		t.Fatal(err)
	}
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }
	for _, tc := range []struct {
		file, mark, lang, why, want string
	}{
		{"app/main.py", "    s.", "python", "members of s's type Store", "def add(self, item, n):"},
		{"app/main.py", "    s.", "python", "members of s's type Store", "def save(self):"},
		{"app/main.py", "    util.", "python", "declarations of module util", "def helper(x):"},
		// Names a module star-imports are its names too (os.path.isdir).
		{"app/main.py", "    paths.", "python", "declarations of module paths (shop/paths.py, star-importing shop/generic.py)", "def isdir(p):"},
		{"app/main.py", "        self.", "python", "members of the enclosing class App", "def start(self):"},
		{"web/main.ts", "  c.", "typescript", "members of c's type Cart", "add(item: string, n: number): void"},
		// A namespace import's members are its module's declarations.
		{"web/ns.ts", "new cartmod.", "typescript", "declarations of module cartmod", "class Cart"},
		{"web/use.ts", "  sub.c", "typescript", "members of sub's type Subscriber, Subscription", "complete(): void"},
		// The rest of the line deleted leaves the call's arguments
		// unbalanced: the text before the cursor, closed, is parsed.
		{"web/use.ts", "  sub.e", "typescript", "members of sub's type Subscriber, Subscription", "unsubscribe(): void"},
		{"web/use.ts", "  make().", "typescript", "members of the operand's type Subscriber, Subscription", "next(v: number): void"},
	} {
		raw, err := os.ReadFile(filepath.Join(root, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		text, off := cursorAfter(t, string(raw), tc.mark)
		p := Build(Source{Store: st, Path: tc.file, Language: tc.lang, Text: text, Offset: off, Read: read}, Budget{})
		var found bool
		var whys []string
		for _, sn := range p.Request.Context {
			whys = append(whys, sn.Why)
			if sn.Why == tc.why && strings.Contains(sn.Text, tc.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s after %q: no %q snippet with %q; got %q", tc.file, tc.mark, tc.why, tc.want, whys)
		}
	}
}
