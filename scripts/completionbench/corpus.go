package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

// corpus is one language's tree: where it is, how it is indexed, and
// which of its files call sites are drawn from.
type corpus struct {
	Lang  string `json:"language"` // "go", "python", "typescript"
	Label string `json:"label"`    // what the tree is, for the tables
	Root  string `json:"root"`
	// excludes are index.Options.Excludes.
	excludes []string
	// exts are the file extensions of the language (windows and sites).
	exts []string
	// siteFile reports whether a root-relative path is a non-test source
	// file sites may be drawn from.
	siteFile func(rel string) bool
}

// corpora returns the three corpora: GOROOT/src, the Python standard
// library and rxjs's TypeScript sources (tsRoot; "" when not present).
func corpora(tsRoot string) ([]corpus, error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	pylib, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		return nil, fmt.Errorf("python3 stdlib: %w", err)
	}
	out := []corpus{
		{Lang: "go", Label: "GOROOT/src", Root: filepath.Join(strings.TrimSpace(string(goroot)), "src"),
			exts: []string{".go"}, siteFile: goSiteFile},
		{Lang: "python", Label: "Python stdlib", Root: strings.TrimSpace(string(pylib)),
			excludes: []string{"site-packages"}, exts: []string{".py"}, siteFile: pySiteFile},
	}
	if tsRoot != "" {
		out = append(out, corpus{Lang: "typescript", Label: "rxjs 7.8.2 src", Root: tsRoot,
			exts: []string{".ts"}, siteFile: tsSiteFile})
	}
	return out, nil
}

// goSiteFile: non-test Go files outside testdata, vendor and the
// directories the go command ignores.
func goSiteFile(rel string) bool {
	if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
		return false
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if d == "testdata" || d == "vendor" || strings.HasPrefix(d, "_") || strings.HasPrefix(d, ".") && d != "." {
			return false
		}
	}
	return true
}

// pySiteFile: non-test Python files (not in test packages, not test_*.py).
func pySiteFile(rel string) bool {
	b := path.Base(rel)
	if !strings.HasSuffix(b, ".py") || strings.HasPrefix(b, "test_") || b == "conftest.py" {
		return false
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		switch d {
		case "test", "tests", "idle_test", "site-packages", "__pycache__":
			return false
		}
	}
	return true
}

// tsSiteFile: TypeScript sources, not declaration files or specs.
func tsSiteFile(rel string) bool {
	return strings.HasSuffix(rel, ".ts") && !strings.HasSuffix(rel, ".d.ts") && !strings.Contains(rel, ".spec.")
}

// copyTree copies the regular files of src into dst (rxjs lives under a
// node_modules directory the index walk skips; bench.sh copies it too).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// open opens (and brings up to date) the corpus's store under data.
func (c corpus) open(ctx context.Context, data string) (*index.Store, *index.Summary, error) {
	st, err := nav.Open(filepath.Join(data, "store-"+c.Lang))
	if err != nil {
		return nil, nil, err
	}
	sum, err := st.Index(ctx, c.Root, index.Options{Excludes: c.excludes})
	if err != nil {
		st.Close()
		return nil, nil, fmt.Errorf("index %s: %w", c.Root, err)
	}
	return st, sum, nil
}

// files lists the store's files of the corpus's language, sorted.
func (c corpus) files(st *index.Store) []string {
	var out []string
	for _, h := range st.Files() {
		if (h.Status == index.StatusIndexed || h.Status == index.StatusPartial) && slices.Contains(c.exts, path.Ext(h.Path)) {
			out = append(out, h.Path)
		}
	}
	slices.Sort(out)
	return out
}

// read returns a root-relative file's content from disk.
func (c corpus) read(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(c.Root, filepath.FromSlash(rel)))
}

// half is the half of the files a path belongs to: "dev" (the files
// looked at while the benchmark was written) or "held" (the reported
// figures), by a hash of the path.
func half(rel string) string {
	h := fnv.New32a()
	h.Write([]byte(rel))
	if h.Sum32()%2 == 0 {
		return "dev"
	}
	return "held"
}
