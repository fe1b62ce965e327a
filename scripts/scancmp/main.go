// Command scancmp compares a language's hand-written scanner (one
// registered with extract.RegisterScanner) with the tree-sitter
// extractor's records on every file of that language under a directory.
//
//	go run ./scripts/scancmp -lang python -dump BASE.gob DIR  # tree-sitter records
//	go run ./scripts/scancmp -lang python -cmp BASE.gob DIR   # scanner against them
//	go run ./scripts/scancmp -lang python -tree FILE          # tree-sitter's tree
//
// -nodesc leaves descriptors out of both sides, for a scanner that does
// not write them yet (index/extract/tsscan, which this command registers
// itself since the index does not import it).
//
// Files are those workspace.DetectLanguage gives -lang; descriptors are
// written by nav.Describers' annotator for the language, as the index
// does. -cmp prints each file whose records differ (with the first
// differences) or that the scanner declines, then the counts.
package main

import (
	"context"
	"encoding/gob"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	_ "github.com/parleyhq/parley/index" // registers the scanners
	"github.com/parleyhq/parley/index/extract"
	_ "github.com/parleyhq/parley/index/extract/tsscan"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/workspace"
)

func main() {
	dump := flag.String("dump", "", "write tree-sitter records to this gob file")
	cmp := flag.String("cmp", "", "compare the scanner with the records in this gob file")
	only := flag.String("only", "", "compare only paths containing this")
	verbose := flag.Int("v", 3, "differences printed per file")
	tree := flag.Bool("tree", false, "print tree-sitter's tree of the file argument")
	flag.BoolVar(&noDesc, "nodesc", false, "compare without descriptors")
	flag.StringVar(&lang, "lang", "python", "language, as workspace.DetectLanguage names it")
	flag.Parse()
	if *tree && flag.NArg() == 1 {
		printTree(flag.Arg(0))
		return
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: scancmp -lang LANG -dump|-cmp FILE DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && workspace.DetectLanguage(filepath.ToSlash(p), nil) == lang && strings.Contains(p, *only) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	switch {
	case *dump != "":
		writeBase(*dump, files)
	case *cmp != "":
		compare(*cmp, files, *verbose)
	}
}

// lang is the -lang flag: the language compared.
var lang string

// noDesc is the -nodesc flag.
var noDesc bool

func writeBase(out string, files []string) {
	ex := extract.For(lang)
	if ex == nil {
		fmt.Fprintln(os.Stderr, "no extractor for", lang)
		os.Exit(2)
	}
	opts := extract.Options{Describe: nav.Describers(), TreeSitter: true}
	if noDesc {
		opts.Describe = nil
	}
	start := time.Now()
	res := make([]*extract.Result, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				src, _ := os.ReadFile(files[i])
				o := opts
				o.Budget = extract.BudgetFor(len(src))
				r, err := ex.Extract(context.Background(), files[i], src, o)
				if err != nil {
					r = &extract.Result{Partial: "error: " + err.Error()}
				}
				res[i] = r
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	fmt.Printf("files %d: tree-sitter path in %s\n", len(files), time.Since(start))
	m := map[string]*extract.Result{}
	for i, f := range files {
		m[f] = res[i]
	}
	fh, err := os.Create(out)
	if err != nil {
		panic(err)
	}
	defer fh.Close()
	if err := gob.NewEncoder(fh).Encode(m); err != nil {
		panic(err)
	}
}

func compare(base string, files []string, verbose int) {
	fh, err := os.Open(base)
	if err != nil {
		panic(err)
	}
	m := map[string]*extract.Result{}
	if err := gob.NewDecoder(fh).Decode(&m); err != nil {
		panic(err)
	}
	fh.Close()
	scan := extract.ScannerFor(lang)
	if scan == nil {
		fmt.Fprintln(os.Stderr, "no scanner for", lang)
		os.Exit(2)
	}
	_, describe := nav.Describers()[lang]
	describe = describe && !noDesc
	var same, fell, differ, tsPartial, inPart, cleanDiffs, asCpp int
	var regionBytes int
	kinds := map[string]int{}
	why := map[string]int{}
	start := time.Now()
	var bytes int
	opts := extract.Options{Describe: nav.Describers()}
	if noDesc {
		opts.Describe = nil
	}
	for _, f := range files {
		want := m[f]
		if want == nil {
			continue
		}
		src, _ := os.ReadFile(f)
		bytes += len(src)
		if lang == "c" && extract.LooksCpp(src) {
			asCpp++ // the C++ path's records (extract/lang_c_cpp.go)
			continue
		}
		got, err := scan(src, describe)
		reg, _ := err.(*extract.Regions)
		if reg != nil && !describe {
			// Read in part: the rest is tree-sitter's (extract.Regions).
			inPart++
			why["in part: "+reason(errors.New(reg.Why))]++
			for _, s := range reg.Spans {
				regionBytes += int(s.End - s.Start)
			}
			o := opts
			o.Budget = extract.BudgetFor(len(src))
			got, err = extract.For(lang).Extract(context.Background(), f, src, o)
		}
		if err != nil {
			fell++
			regionBytes += len(src)
			why[reason(err)]++
			if want.Partial == "" {
				fmt.Printf("FALLBACK %s: %v\n", f, err)
			}
			continue
		}
		if want.Partial != "" {
			tsPartial++
		}
		d := diff(want, got)
		if len(d) == 0 {
			same++
			continue
		}
		differ++
		clean := !hasError(src)
		if clean {
			cleanDiffs++
		}
		fmt.Printf("DIFF %s (ts partial %q, error tree %v)\n", f, want.Partial, !clean)
		if reg != nil {
			in, out := spanRefDiffs(want, got, reg, src)
			fmt.Printf("   refs differing inside spans %d, outside %d\n", in, out)
		}
		seen := map[string]bool{}
		for i, x := range d {
			if !seen[x.kind] {
				kinds[x.kind]++
				seen[x.kind] = true
			}
			if i < verbose {
				fmt.Printf("   %s: %s\n", x.kind, x.msg)
			}
		}
	}
	fmt.Printf("files %d: same %d, differ %d (%d where tree-sitter's tree has no error), fallback %d, read in part %d (scanned where ts partial: %d); %.1f MB in %s\n",
		len(files), same, differ, cleanDiffs, fell, inPart, tsPartial, float64(bytes)/1e6, time.Since(start))
	fmt.Printf("bytes tree-sitter reads: %.2f of %.2f MB\n", float64(regionBytes)/1e6, float64(bytes)/1e6)
	if asCpp > 0 {
		fmt.Printf("read as C++, not compared: %d\n", asCpp)
	}
	fmt.Println("files differing by record kind:", kinds)
	fmt.Println("fallback reasons:", why)
}

type delta struct{ kind, msg string }

func diff(a, b *extract.Result) []delta {
	var out []delta
	add := func(kind, format string, args ...any) { out = append(out, delta{kind, fmt.Sprintf(format, args...)}) }
	if a.Partial != b.Partial {
		add("partial", "%q vs %q", a.Partial, b.Partial)
	}
	for i := 0; i < len(a.Symbols) || i < len(b.Symbols); i++ {
		if i >= len(a.Symbols) || i >= len(b.Symbols) {
			add("symbols", "count %d vs %d", len(a.Symbols), len(b.Symbols))
			break
		}
		if !reflect.DeepEqual(a.Symbols[i], b.Symbols[i]) {
			add("symbols", "\n      ts %+v\n      sc %+v", a.Symbols[i], b.Symbols[i])
			if a.Symbols[i].Name != b.Symbols[i].Name {
				break
			}
		}
	}
	for i := 0; i < len(a.Refs) || i < len(b.Refs); i++ {
		if i >= len(a.Refs) || i >= len(b.Refs) {
			add("refs", "count %d vs %d", len(a.Refs), len(b.Refs))
			break
		}
		x, y := a.Refs[i], b.Refs[i]
		if x.Name != y.Name || x.Pos != y.Pos {
			add("refs", "ts %+v vs sc %+v", x, y)
			break
		}
		if x.Call != y.Call {
			add("refcall", "ts %+v vs sc %+v", x, y)
		}
		if opnd(a, x) != opnd(b, y) {
			add("desc", "%s at %d:%d ts %q vs sc %q", x.Name, x.Pos.Line+1, x.Pos.Col, opnd(a, x), opnd(b, y))
		}
	}
	if !reflect.DeepEqual(a.Imports, b.Imports) {
		add("imports", "%v vs %v", a.Imports, b.Imports)
	}
	if !reflect.DeepEqual(a.Todos, b.Todos) {
		add("todos", "%v vs %v", a.Todos, b.Todos)
	}
	if len(out) == 0 && !reflect.DeepEqual(a.Operands, b.Operands) {
		add("optable", "%d vs %d entries", len(a.Operands), len(b.Operands))
		for i := range a.Operands {
			if i < len(b.Operands) && a.Operands[i] != b.Operands[i] {
				add("optable", "first differs at %d: %q vs %q", i, a.Operands[i], b.Operands[i])
				break
			}
		}
	}
	return out
}

// spanRefDiffs counts the references in one result and not the other
// inside the scanner's spans and outside them.
func spanRefDiffs(a, b *extract.Result, reg *extract.Regions, src []byte) (in, out int) {
	lines := extract.LineStarts(src, nil)
	type key struct {
		name string
		pos  extract.Pos
	}
	count := map[key]int{}
	for _, r := range a.Refs {
		count[key{r.Name, r.Pos}]++
	}
	for _, r := range b.Refs {
		count[key{r.Name, r.Pos}]--
	}
	for k, n := range count {
		if n == 0 {
			continue
		}
		off := lines[k.pos.Line] + k.pos.Col
		inside := false
		for _, s := range reg.Spans {
			if off >= s.Start && off < s.End {
				inside = true
			}
		}
		if inside {
			if in < 3 {
				fmt.Printf("   inside a span: %s at %d:%d, %+d in tree-sitter's\n", k.name, k.pos.Line+1, k.pos.Col, n)
			}
			in++
		} else {
			out++
		}
	}
	return in, out
}

// hasError reports whether tree-sitter's tree of src has an error node.
func hasError(src []byte) bool {
	tree, err := extract.ParseTree(context.Background(), lang, src, extract.BudgetFor(len(src)))
	if err != nil {
		return true
	}
	defer tree.Release()
	return tree.Root().HasError()
}

func opnd(r *extract.Result, x extract.Ref) string {
	if x.Operand == 0 || int(x.Operand) > len(r.Operands) {
		return ""
	}
	return r.Operands[x.Operand-1]
}

// reason is a scanner's error without its line, for counting:
// scanners write "pkg: line N: why" or "pkg: why".
func reason(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, ": line "); ok {
		if _, why, ok := strings.Cut(rest, ": "); ok {
			return why
		}
	}
	return msg
}
