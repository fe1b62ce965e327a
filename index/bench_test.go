package index

// Benchmarks of the indexer, the store's queries and symbol matching. They
// only run with -bench (`go test -run '^$' -bench . -benchmem ./index/`);
// `make bench` runs them after the whole-corpus comparison with ctags.
//
// Every tree is generated, deterministic Go with realistic identifier
// names (NewReader, (*Buffer).WriteString, parseConfig, ...), so figures are
// comparable across machines and runs. Each benchmark's setup (generate the
// tree, index it once where needed) stays within a few seconds on two cores.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	benchVerbs = []string{"New", "Get", "Set", "Read", "Write", "Parse", "Handle", "Close", "Open",
		"Load", "Store", "Encode", "Decode", "Format", "Resolve", "Build", "Find", "Walk", "Flush",
		"Reset", "Apply", "Validate", "Merge", "Lookup", "Register", "Serve", "Dial", "Scan"}
	benchNouns = []string{"Reader", "Writer", "Buffer", "Request", "Response", "Config", "Client",
		"Server", "Handler", "Conn", "File", "Token", "Node", "Tree", "Cache", "Index", "Stream",
		"Header", "Record", "Option", "Session", "Context", "Pool", "Queue", "Event", "Path",
		"Symbol", "Entry", "Table", "Schema", "HTTPRequest", "JSONValue", "URL", "ID"}
	benchSuffixes = []string{"", "", "", "Info", "Set", "Map", "List", "State", "Spec", "Impl"}
)

// genGoFile returns one Go source file of package pkg: a few types with
// fields and methods, free functions, calls between them and comments, about
// 3-4 KB, much like ordinary library code.
func genGoFile(r *rand.Rand, pkg string, file int) []byte {
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	var b strings.Builder
	fmt.Fprintf(&b, "// Code in package %s, file %d.\n\npackage %s\n\n", pkg, file, pkg)
	b.WriteString("import (\n\t\"errors\"\n\t\"fmt\"\n\t\"io\"\n\t\"strings\"\n)\n\n")
	for t := range 3 {
		typ := pick(benchNouns) + pick(benchSuffixes) + fmt.Sprint(file*3+t)
		fmt.Fprintf(&b, "// %s holds the state of one %s.\ntype %s struct {\n", typ, strings.ToLower(pick(benchNouns)), typ)
		for range 2 + r.IntN(4) {
			fmt.Fprintf(&b, "\t%s %s\n", pick(benchNouns)+pick(benchSuffixes), pick([]string{"string", "int", "[]byte", "io.Reader", "map[string]int", "*strings.Builder"}))
		}
		b.WriteString("}\n\n")
		fmt.Fprintf(&b, "// New%s returns a ready %s.\nfunc New%s(r io.Reader) (*%s, error) {\n\tif r == nil {\n\t\treturn nil, errors.New(\"nil reader\")\n\t}\n\treturn &%s{}, nil\n}\n\n", typ, typ, typ, typ, typ)
		for range 3 + r.IntN(4) {
			verb, noun := pick(benchVerbs), pick(benchNouns)
			fmt.Fprintf(&b, "// %s%s %ss the %s.\nfunc (x *%s) %s%s(name string, n int) (string, error) {\n", verb, noun, strings.ToLower(verb), strings.ToLower(noun), typ, verb, noun)
			fmt.Fprintf(&b, "\tvar sb strings.Builder\n\tfor i := 0; i < n; i++ {\n\t\tif err := %s%s(name, i); err != nil {\n\t\t\treturn \"\", fmt.Errorf(\"%s: %%w\", err)\n\t\t}\n\t\tsb.WriteString(name)\n\t}\n", strings.ToLower(pick(benchVerbs)), pick(benchNouns), strings.ToLower(verb))
			fmt.Fprintf(&b, "\tif x == nil {\n\t\treturn \"\", io.EOF // TODO: a better error\n\t}\n\treturn sb.String(), x.Close()\n}\n\n")
		}
		fmt.Fprintf(&b, "// Close releases the %s.\nfunc (x *%s) Close() error { return nil }\n\n", typ, typ)
	}
	// The lower-case helpers the methods call; some names repeat across
	// files, as helpers do in real code.
	for _, verb := range benchVerbs[:6] {
		for range 2 {
			noun := pick(benchNouns)
			fmt.Fprintf(&b, "func %s%s%d(name string, i int) error {\n\tif name == \"\" || i < 0 {\n\t\treturn errors.New(\"bad %s\")\n\t}\n\treturn nil\n}\n\n", strings.ToLower(verb), noun, r.IntN(50), strings.ToLower(noun))
		}
	}
	fmt.Fprintf(&b, "const Default%s = %d\n\nvar errNo%s = errors.New(\"no %s\")\n", pick(benchNouns), r.IntN(1000), pick(benchNouns), pick(benchNouns))
	return []byte(b.String())
}

// genGoTree writes n generated Go files, 20 to a package directory, and
// returns their total size in bytes.
func genGoTree(b *testing.B, dir string, n int) int64 {
	b.Helper()
	r := rand.New(rand.NewPCG(uint64(n), 42))
	var total int64
	for i := range n {
		pkg := fmt.Sprintf("pkg%03d", i/20)
		p := filepath.Join(dir, pkg, fmt.Sprintf("file%04d.go", i))
		if i%20 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		src := genGoFile(r, pkg, i)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			b.Fatal(err)
		}
		total += int64(len(src))
	}
	return total
}

func benchIndex(b *testing.B, st *Store, root string) *Summary {
	b.Helper()
	sum, err := st.Index(context.Background(), root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	return sum
}

// BenchmarkIndexColdSmall indexes a 300-file tree into a fresh store per
// operation: open (create) the store, extract and write every file, close.
// MB/s is source bytes per second.
func BenchmarkIndexColdSmall(b *testing.B) {
	root := b.TempDir()
	b.SetBytes(genGoTree(b, root, 300))
	data := b.TempDir()
	var sum *Summary
	i := 0
	for b.Loop() {
		dir := filepath.Join(data, fmt.Sprint(i))
		i++
		st, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		sum = benchIndex(b, st, root)
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	if sum.Files != 300 || sum.Changed != 300 || sum.Symbols == 0 {
		b.Fatalf("cold run: %+v", sum)
	}
	b.ReportMetric(float64(sum.Symbols), "symbols")
	b.ReportMetric(float64(sum.Refs), "refs")
}

// BenchmarkIndexWarm re-indexes an unchanged 2000-file tree: walk, stat and
// compare every file, extract nothing. "reuse" keeps the store open (the
// language server's case); "reopen" also opens and closes it, as every CLI
// run does.
func BenchmarkIndexWarm(b *testing.B) {
	root := b.TempDir()
	genGoTree(b, root, 2000)
	data := b.TempDir()
	st, err := Open(data)
	if err != nil {
		b.Fatal(err)
	}
	benchIndex(b, st, root)
	b.Run("reuse", func(b *testing.B) {
		var sum *Summary
		for b.Loop() {
			sum = benchIndex(b, st, root)
		}
		if sum.Changed != 0 || sum.Unchanged != 2000 {
			b.Fatalf("warm run changed files: %+v", sum)
		}
	})
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	b.Run("reopen", func(b *testing.B) {
		var sum *Summary
		for b.Loop() {
			st, err := Open(data)
			if err != nil {
				b.Fatal(err)
			}
			sum = benchIndex(b, st, root)
			if err := st.Close(); err != nil {
				b.Fatal(err)
			}
		}
		if sum.Changed != 0 || sum.Unchanged != 2000 {
			b.Fatalf("warm run changed files: %+v", sum)
		}
	})
}

// benchQueryStore returns an open store holding a generated 2000-file tree
// (about 7 MB of Go, ~90k symbols); it is closed when the benchmark ends.
func benchQueryStore(b *testing.B) *Store {
	b.Helper()
	root := b.TempDir()
	genGoTree(b, root, 2000)
	st, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	benchIndex(b, st, root)
	return st
}

// BenchmarkSearchSymbols runs the symbol search (a full scan of the name
// index) with the CLI's default limit, for queries that hit each match class.
func BenchmarkSearchSymbols(b *testing.B) {
	st := benchQueryStore(b)
	for _, q := range []string{"Reader", "newread", "NewRe", "hdlReq", "flushbuf", "zzzzqx"} {
		b.Run(q, func(b *testing.B) {
			var hits []SymbolHit
			for b.Loop() {
				var err error
				if hits, err = st.SearchSymbols(q, 50); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(hits)), "hits/op")
		})
	}
}

// BenchmarkDefinitions looks names up in the name index: a common method
// name, a constructor, a lower-case helper and a miss.
func BenchmarkDefinitions(b *testing.B) {
	st := benchQueryStore(b)
	for _, name := range []string{"Close", "NewReader1", "ReadBuffer", "nosuchname"} {
		b.Run(name, func(b *testing.B) {
			var hits []SymbolHit
			for b.Loop() {
				var err error
				if hits, err = st.Definitions(name); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(hits)), "hits/op")
		})
	}
}

// BenchmarkReferences lists every occurrence of a name (limit 0) and with
// the CLI's default limit of 1000.
func BenchmarkReferences(b *testing.B) {
	st := benchQueryStore(b)
	for _, c := range []struct {
		name  string
		limit int
	}{{"Close", 0}, {"Close", 1000}, {"Errorf", 0}, {"ReadBuffer", 0}, {"nosuchname", 0}} {
		b.Run(fmt.Sprintf("%s/limit=%d", c.name, c.limit), func(b *testing.B) {
			var hits []RefHit
			for b.Loop() {
				var err error
				if hits, err = st.References(c.name, c.limit); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(hits)), "hits/op")
		})
	}
}

// BenchmarkClassify ranks 10,000 realistic names against one query per
// operation, as SearchSymbols does for every key it scans; ns/name is the
// cost per candidate. "camelMatch" times the camel-case matcher alone.
func BenchmarkClassify(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 7))
	names := make([]string, 10000)
	lowers := make([][]byte, len(names))
	for i := range names {
		switch i % 3 {
		case 0:
			names[i] = benchVerbs[r.IntN(len(benchVerbs))] + benchNouns[r.IntN(len(benchNouns))]
		case 1:
			names[i] = benchNouns[r.IntN(len(benchNouns))] + benchSuffixes[r.IntN(len(benchSuffixes))] + fmt.Sprint(r.IntN(500))
		default:
			names[i] = strings.ToLower(benchVerbs[r.IntN(len(benchVerbs))]) + "_" + strings.ToLower(benchNouns[r.IntN(len(benchNouns))])
		}
		lowers[i] = appendLower(nil, names[i])
	}
	bnames := make([][]byte, len(names))
	for i, n := range names {
		bnames[i] = []byte(n)
	}
	for _, q := range []string{"NewReader", "newreader", "Read", "nRd", "hdlReq", "buffer", "zzq"} {
		lq := appendLower(nil, q)
		b.Run(q, func(b *testing.B) {
			matched := 0
			for b.Loop() {
				matched = 0
				for i := range names {
					if classify(bnames[i], lowers[i], q, lq) != matchNone {
						matched++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(names)), "ns/name")
			b.ReportMetric(float64(matched), "matches")
		})
	}
	b.Run("camelMatch", func(b *testing.B) {
		for b.Loop() {
			for _, name := range bnames {
				camelMatch(name, "hdlReq") // result unused: timing only
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(names)), "ns/name")
	})
}

// BenchmarkRankedDefinitions is the language server's go-to-definition
// lookup as seen from one file: DefinitionSites, the file's context and
// SortDefinitions (best/op is the size of the class the server answers).
func BenchmarkRankedDefinitions(b *testing.B) {
	st := benchQueryStore(b)
	const from = "pkg010/file0200.go"
	for _, name := range []string{"Close", "NewReader1", "ReadBuffer", "nosuchname"} {
		b.Run(name, func(b *testing.B) {
			best := 0
			for b.Loop() {
				hits, err := st.DefinitionSites(name)
				if err != nil {
					b.Fatal(err)
				}
				ctx, err := st.DefinitionContext(from)
				if err != nil {
					b.Fatal(err)
				}
				best = SortDefinitions(hits, func(h NameHit) DefinitionRank { return ctx.Rank(h.Path) })
			}
			b.ReportMetric(float64(best), "best/op")
		})
	}
}
