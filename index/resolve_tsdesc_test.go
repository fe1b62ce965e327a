package index

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index/extract"
)

var updateTSDesc = flag.Bool("update-tsdesc", false, "rewrite testdata/resolve_tsdesc.txtar's want file")

// TestTSDescriptorsGolden extracts each file of
// testdata/resolve_tsdesc.txtar and checks every occurrence's descriptor
// and the file's facts against its want file: shadowing (block scopes,
// parameters), named, aliased, default and namespace imports,
// re-exports, this and super, instances from new and annotations,
// declared return types, overloads, callback parameters, destructuring,
// JSDoc links, and unknown values.
func TestTSDescriptorsGolden(t *testing.T) {
	archive := filepath.Join("testdata", "resolve_tsdesc.txtar")
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	wantAt := -1
	for i, f := range ar.Files {
		if f.Name == "want" {
			wantAt = i
			continue
		}
		lang := "typescript"
		if strings.HasSuffix(f.Name, ".js") {
			lang = "javascript"
		}
		res, err := extract.For(lang).Extract(context.Background(), f.Name, f.Data, extract.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "# %s\n", f.Name)
		for _, r := range res.Refs {
			desc := "-"
			if r.Operand > 0 {
				desc = res.Operands[r.Operand-1]
			}
			fmt.Fprintf(&got, "%d:%d %s %s\n", r.Pos.Line+1, r.Pos.Col+1, r.Name, desc)
		}
		for _, o := range res.Operands {
			if strings.HasPrefix(o, "!") {
				fmt.Fprintf(&got, "fact %s\n", o)
			}
		}
	}
	if wantAt < 0 {
		t.Fatalf("%s has no want file", archive)
	}
	if *updateTSDesc {
		ar.Files[wantAt].Data = []byte(got.String())
		if err := os.WriteFile(archive, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := string(ar.Files[wantAt].Data); got.String() != want {
		t.Errorf("descriptors differ from %s (rerun with -update-tsdesc and review the diff):\n%s", archive, got.String())
	}
}
