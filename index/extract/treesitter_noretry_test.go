package extract

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	ts "github.com/odvcencio/gotreesitter"
)

// TestCNoRetryTokenSource: a C file of softMinSize or more is lexed by a
// token source gotreesitter cannot reset, so it runs no reparses; smaller
// C files and C++ keep the resettable one. The wrapper must keep the
// optional methods the parser uses.
func TestCNoRetryTokenSource(t *testing.T) {
	big := []byte("int x;\n" + strings.Repeat("/* padding */\n", softMinSize/14+1))
	for _, tc := range []struct {
		lang      string
		src       []byte
		resetable bool
	}{
		{"c", big, false},
		{"c", []byte("int x;\n"), true},
		{"cpp", big, true},
	} {
		c, err := For(tc.lang).(*tsExtractor).load()
		if err != nil {
			t.Fatal(err)
		}
		tokens := c.tokenSource(tc.src)
		if ok := implements[interface{ Reset([]byte) }](tokens); ok != tc.resetable {
			t.Errorf("%s, %d bytes: resettable %v, want %v", tc.lang, len(tc.src), ok, tc.resetable)
		}
		for method, ok := range map[string]bool{
			"SkipToByte":     implements[interface{ SkipToByte(uint32) ts.Token }](tokens),
			"SetParserState": implements[interface{ SetParserState(ts.StateID) }](tokens),
			"SetGLRStates":   implements[interface{ SetGLRStates([]ts.StateID) }](tokens),
			"Close":          implements[interface{ Close() }](tokens),
		} {
			if !ok {
				t.Errorf("%s, %d bytes: the token source lost %s", tc.lang, len(tc.src), method)
			}
		}
	}
}

// implements reports whether v has I's methods.
func implements[I any](v any) bool { _, ok := v.(I); return ok }

// TestCFirstPassKept: Go's regexp/testdata/testregex.c (preprocessor lines
// inside an initializer) ends its first pass with ERROR nodes; it used to
// reparse until the reparse cut and be stored partial. Its first pass is
// kept now, whole.
func TestCFirstPassKept(t *testing.T) {
	path := filepath.Join(runtime.GOROOT(), "src", "regexp", "testdata", "testregex.c")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A generous budget: under -race the first pass alone takes over a
	// second, beyond the file's default budget. The reparse cut does not
	// depend on the budget, so the old behaviour still fails here.
	res, err := For("c").Extract(context.Background(), path, src, Options{Budget: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Partial != "" {
		t.Errorf("partial: %s", res.Partial)
	}
	if len(res.Symbols) < 100 || len(res.Refs) < 3000 {
		t.Errorf("%d symbols and %d references, want the first pass's 122 and 3,101", len(res.Symbols), len(res.Refs))
	}
}
