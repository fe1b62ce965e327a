package navtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index/extract"
)

// CheckDescriptorsGolden extracts each file of testdata/ARCHIVE in the
// language lang names for it, with the describers d, and compares every occurrence's descriptor
// and the file's facts with the archive's want file, or rewrites that
// file when update (the flag updateFlag) is set.
func CheckDescriptorsGolden(t *testing.T, archive string, d Describers, updateFlag string, update bool, lang func(name string) string) {
	t.Helper()
	archive = filepath.Join("testdata", archive)
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
		res, err := extract.For(lang(f.Name)).Extract(context.Background(), f.Name, f.Data, extract.Options{Describe: d})
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
	if update {
		ar.Files[wantAt].Data = []byte(got.String())
		if err := os.WriteFile(archive, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := string(ar.Files[wantAt].Data); got.String() != want {
		t.Errorf("descriptors differ from %s (rerun with -%s and review the diff); first difference:\n%s",
			archive, updateFlag, FirstLineDiff(want, got.String()))
	}
}

// FirstLineDiff shows where got first departs from want, line by line.
func FirstLineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		wl, gl := "<none>", "<none>"
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, wl, gl)
		}
	}
	return "(none)"
}
