package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

// The targets of issues 12 and 27, as the share of read_file tokens saved
// against showing the whole file at every read. Issue 27's (a first read,
// "outline", of at most 40% of the file; explore; debug) are held on the
// held-out files (testdata/tokenbench/heldout), which the outline was not
// tuned on; issue 12's (edit, multi-edit, unchanged) over all files. Both
// sets' totals are reported.
var tokenTargets = map[string]float64{
	"explore": 0.80, "debug": 0.92, "edit": 0.85, "multi-edit": 0.60,
	"outline": 0.60, "unchanged": 0.97,
}

// heldOutTargets are the workflows whose targets the held-out files must
// meet (issue 27); the others' are held over all files.
var heldOutTargets = map[string]bool{"outline": true, "explore": true, "debug": true}

// maxFirstRead is issue 27's bound on a first read (an outline), as a
// share of the file's tokens: held over the held-out files by the
// "outline" target, and each file above it is listed.
const maxFirstRead = 0.40

// maxLedgerP99 bounds the ledger's own work per read (hashing, deciding,
// diffing, recording), outline extraction excluded, in CPU time of the
// reading thread. The wall time is reported too, but not held to it: on
// the two-core machines that run it beside other builds (load averages of
// 9 to 35), a wall-clock p99 measures how long the thread waited for a
// core (at a load of 31: CPU p99 0.4 ms, wall p99 0.8-5 ms, wall max
// 30-140 ms), which is how one run once measured 6.08 ms.
const maxLedgerP99 = 5 * time.Millisecond

// benchEnv is a workspace holding one file, with a session ledger.
type benchEnv struct {
	env  *Env
	ctx  context.Context
	name string
}

func newBenchEnv(b *testing.B, name string, src []byte) *benchEnv {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		b.Fatal(err)
	}
	roots, err := workspace.NewRoots(dir)
	if err != nil {
		b.Fatal(err)
	}
	env := &Env{Roots: roots, Files: &DiskView{}, Editor: NewDiskEditor(roots), Ledger: ledger.NewMemory()}
	return &benchEnv{env: env, ctx: ledger.WithTurn(context.Background(), 1), name: name}
}

// run calls a tool and returns its result's tokens (0 for edits, whose
// result is the same with or without the ledger).
func (e *benchEnv) run(b *testing.B, tool Tool, in map[string]any) (string, int) {
	in["path"] = e.name
	res, err := runTool(e.ctx, tool, e.env, ftInput(b, in))
	if err != nil || res.IsError {
		b.Fatalf("%s %v: %v %+v", tool.Name(), in, err, res)
	}
	if tool != readFileTool {
		return res.Content, 0
	}
	n, err := countTokens(res.Content)
	if err != nil {
		b.Fatal(err)
	}
	return res.Content, n
}

func (e *benchEnv) read(b *testing.B) int {
	_, n := e.run(b, readFileTool, map[string]any{})
	return n
}

func (e *benchEnv) readRange(b *testing.B, r ledger.Range) int {
	_, n := e.run(b, readFileTool, map[string]any{"start_line": r.Start, "end_line": r.End})
	return n
}

// benchEdit is one edit of a line inside a function body.
type benchEdit struct {
	body     ledger.Range
	old, new string
}

// benchEdits picks three function bodies spread over the file and edits
// one line in each (a comment appended), which makes the file's second
// version.
func benchEdits(b *testing.B, name string, src []byte) []benchEdit {
	lines := splitLines(string(src))
	res, err := extract.For(outlineLanguage(name, src)).Extract(context.Background(), name, src, extract.Options{})
	if err != nil {
		b.Fatal(err)
	}
	bodies := ledger.Elisions(lines, res.Symbols)
	comment := map[string]string{".py": " # edited", ".lua": " -- edited"}[filepath.Ext(name)]
	if comment == "" {
		comment = " /* edited */"
	}
	// A file with CRLF line ends (DynamicParameters.cs) is edited as it
	// is written: splitLines drops the "\r".
	eol := "\n"
	if strings.Contains(string(src), "\r\n") {
		eol = "\r\n"
	}
	var out []benchEdit
	used := -1
	for _, q := range []float64{0.25, 0.5, 0.75} {
		// The first body from the quantile on with a line that occurs
		// once in the file.
	bodies:
		for i := max(int(q*float64(len(bodies))), used+1); i < len(bodies); i++ {
			body := bodies[i]
			for n := (body.Start + body.End) / 2; n <= body.End; n++ {
				l := lines[n-1]
				if strings.TrimSpace(l) != "" && strings.Count(string(src), l+eol) == 1 {
					out = append(out, benchEdit{body: body, old: l + eol, new: l + comment + eol})
					used = i
					break bodies
				}
			}
		}
	}
	if len(out) != 3 {
		// A file of data tables with few functions (EntityArrays.java):
		// edit lines of the tables instead, each with the lines around it
		// as the "body" read before the edit.
		out = out[:0]
		for _, q := range []float64{0.25, 0.5, 0.75} {
			for n := int(q * float64(len(lines))); n <= len(lines); n++ {
				l := lines[n-1]
				if strings.TrimSpace(l) != "" && strings.Count(string(src), l+eol) == 1 {
					body := ledger.Range{Start: max(n-3, 1), End: min(n+3, len(lines))}
					out = append(out, benchEdit{body: body, old: l + eol, new: l + comment + eol})
					break
				}
			}
		}
	}
	if len(out) != 3 {
		b.Fatalf("%s: found %d editable lines", name, len(out))
	}
	return out
}

func (e *benchEnv) edit(b *testing.B, ed benchEdit) {
	e.run(b, editFileTool, map[string]any{"old_string": ed.old, "new_string": ed.new})
}

// signaturesKept checks that the outline shows, numbered, the name line
// of every symbol outside function bodies, but for the members of long
// enums, which it folds (ledger.FoldedEnumMembers).
func signaturesKept(b *testing.B, name string, src []byte, outline string) (kept, total int) {
	lines := splitLines(string(src))
	res, err := extract.For(outlineLanguage(name, src)).Extract(context.Background(), name, src, extract.Options{})
	if err != nil {
		b.Fatal(err)
	}
	folded := ledger.FoldedEnumMembers(res.Symbols)
	for i, s := range res.Symbols {
		if folded[i] {
			continue
		}
		inBody := false
		for p := s.Parent; p >= 0; p = res.Symbols[p].Parent {
			k := res.Symbols[p].Kind
			inBody = inBody || k == extract.KindFunction || k == extract.KindMethod || k == extract.KindConstructor
		}
		if inBody {
			continue
		}
		total++
		n := int(res.Symbols[i].Selection.Start.Line) + 1
		if strings.Contains(outline, fmt.Sprintf("\n%d\t%s\n", n, lines[n-1])) {
			kept++
		} else {
			b.Logf("%s: %s %s (line %d) is not in the outline", name, s.Kind, s.Name, n)
		}
	}
	return kept, total
}

// benchWorkflows are the workflows BenchmarkTokens reports, in order.
var benchWorkflows = []string{"explore", "debug", "edit", "multi-edit", "outline", "unchanged"}

// benchFile is one file's tokens per workflow: sent with the ledger, and
// the baseline of showing the whole file at every read.
type benchFile struct {
	split, name, lang string
	sent, base        map[string]int
}

func (f benchFile) saved(w string) float64 { return 1 - float64(f.sent[w])/float64(f.base[w]) }

// BenchmarkTokens runs the four workflows of issue 12 on each file of
// testdata/tokenbench/{tuning,heldout} through the real read_file and
// edit_file with a session ledger, and reports the tokens saved against
// reading the whole file every time, per file, per split and in all.
// `make bench-tokens` runs it once and it fails when a target is missed.
func BenchmarkTokens(b *testing.B) {
	var names []string
	for _, split := range []string{"tuning", "heldout"} {
		m, err := filepath.Glob(filepath.Join("testdata/tokenbench", split, "*.*"))
		if err != nil {
			b.Fatal(err)
		}
		names = append(names, m...)
	}
	var files []benchFile
	var overhead, overheadWall, outlineTimes []time.Duration
	for range b.N {
		files, overhead, overheadWall, outlineTimes = files[:0], overhead[:0], overheadWall[:0], outlineTimes[:0]
		for _, path := range names {
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			f, edits := runWorkflows(b, filepath.Base(path), src)
			f.split = filepath.Base(filepath.Dir(path))
			files = append(files, f)
			cpu, wall := ledgerTimes(b, src, edits)
			overhead, overheadWall = append(overhead, cpu...), append(overheadWall, wall...)
			outlineTimes = append(outlineTimes, outlineTime(b, f.name, src))
		}
	}
	reportTokens(b, files)
	p99 := percentile(overhead, 0.99)
	b.ReportMetric(float64(p99.Microseconds()), "ledger-p99-µs")
	fmt.Printf("ledger overhead per read (CPU): p50 %v, p99 %v over %d reads (wall: p50 %v, p99 %v, max %v); outline build p99 %v over %d files\n",
		percentile(overhead, 0.5), p99, len(overhead), percentile(overheadWall, 0.5), percentile(overheadWall, 0.99), percentile(overheadWall, 1),
		percentile(outlineTimes, 0.99), len(outlineTimes))
	if p99 > maxLedgerP99 {
		b.Errorf("ledger overhead p99 %v above %v", p99, maxLedgerP99)
	}
}

// runWorkflows runs every workflow on one file, each in a new session.
func runWorkflows(b *testing.B, name string, src []byte) (benchFile, []benchEdit) {
	f := benchFile{name: name, lang: outlineLanguage(name, src), sent: map[string]int{}, base: map[string]int{}}
	plain := newBenchEnv(b, name, src)
	plain.env.Ledger = nil
	full := plain.read(b)
	edits := benchEdits(b, name, src)

	e := newBenchEnv(b, name, src)
	first, n := e.run(b, readFileTool, map[string]any{})
	if !strings.HasPrefix(first, "[outline of ") {
		b.Errorf("%s: the first read is not an outline", name)
	} else if kept, total := signaturesKept(b, name, src, first); kept != total {
		b.Errorf("%s: the outline keeps %d of %d signatures", name, kept, total)
	}
	again := e.read(b)
	f.sent["outline"], f.base["outline"] = n, full
	f.sent["unchanged"], f.base["unchanged"] = again, full
	f.sent["explore"], f.base["explore"] = n+again, 2*full

	e = newBenchEnv(b, name, src)
	f.sent["debug"], f.base["debug"] = e.read(b)+e.read(b)+e.read(b)+e.read(b)+e.read(b), 5*full

	e = newBenchEnv(b, name, src)
	s := e.read(b) + e.readRange(b, edits[1].body)
	e.edit(b, edits[1])
	f.sent["edit"], f.base["edit"] = s+e.read(b)+e.read(b), 3*full

	e = newBenchEnv(b, name, src)
	s = e.read(b)
	for _, ed := range edits {
		s += e.readRange(b, ed.body)
		e.edit(b, ed)
		s += e.read(b)
	}
	f.sent["multi-edit"], f.base["multi-edit"] = s, 4*full
	return f, edits
}

// reportTokens prints the first read's share of each file and the savings
// per file, per language, per split and in all, with the files whose
// first read is over maxFirstRead of them, and fails the benchmark when
// the held-out files' totals miss one of issue 27's targets or all
// files' totals miss one of issue 12's.
func reportTokens(b *testing.B, files []benchFile) {
	fmt.Printf("%-8s %-26s %6s %7s %8s %8s\n", "split", "file", "tokens", "first", "explore", "debug")
	var over []string
	for _, f := range files {
		fmt.Printf("%-8s %-26s %6d %6.1f%% %7.1f%% %7.1f%%\n", f.split, f.name, f.base["outline"],
			100*(1-f.saved("outline")), 100*f.saved("explore"), 100*f.saved("debug"))
		if 1-f.saved("outline") > maxFirstRead {
			over = append(over, f.name)
		}
	}
	fmt.Printf("first read over %.0f%% of the file: %d of %d files %v\n", 100*maxFirstRead, len(over), len(files), over)
	group := func(key func(benchFile) string) ([]string, map[string]benchFile) {
		var keys []string
		sums := map[string]benchFile{}
		for _, f := range files {
			k := key(f)
			g, ok := sums[k]
			if !ok {
				keys = append(keys, k)
				g = benchFile{name: k, sent: map[string]int{}, base: map[string]int{}}
			}
			for _, w := range benchWorkflows {
				g.sent[w] += f.sent[w]
				g.base[w] += f.base[w]
			}
			sums[k] = g
		}
		slices.Sort(keys)
		return keys, sums
	}
	for _, by := range []func(benchFile) string{
		func(f benchFile) string { return "lang " + f.lang },
		func(f benchFile) string { return "split " + f.split },
	} {
		keys, sums := group(by)
		for _, k := range keys {
			g := sums[k]
			fmt.Printf("%-35s %6.1f%% %7.1f%% %7.1f%%\n", k, 100*(1-g.saved("outline")), 100*g.saved("explore"), 100*g.saved("debug"))
		}
	}
	_, all := group(func(benchFile) string { return "all" })
	_, splits := group(func(f benchFile) string { return f.split })
	for _, set := range []struct {
		name   string
		g      benchFile
		metric string
		held   bool
	}{{"held-out", splits["heldout"], "heldout-", true}, {"all", all["all"], "", false}} {
		fmt.Printf("%s files:\n", set.name)
		for _, w := range benchWorkflows {
			saved := set.g.saved(w)
			b.ReportMetric(100*saved, set.metric+w+"-saved-%")
			fmt.Printf("  %-11s sent %7d of %7d tokens: %5.1f%% saved (target %2.0f%%)\n", w, set.g.sent[w], set.g.base[w], 100*saved, 100*tokenTargets[w])
			if set.held == heldOutTargets[w] && saved < tokenTargets[w] {
				b.Errorf("%s files: %s saves %.1f%%, below the %.0f%% target", set.name, w, 100*saved, 100*tokenTargets[w])
			}
		}
	}
}

// ledgerTimes times the ledger's own work for reads of src: unchanged
// re-reads, diffs against the second version and certificates.
func ledgerTimes(b *testing.B, src []byte, edits []benchEdit) (cpu, wall []time.Duration) {
	runtime.LockOSThread() // threadCPU measures this thread
	defer runtime.UnlockOSThread()
	v2 := string(src)
	for _, ed := range edits {
		v2 = strings.Replace(v2, ed.old, ed.new, 1)
	}
	versions := [][]byte{src, []byte(v2)}
	l := ledger.NewMemory()
	for i := range 60 {
		content := versions[i/20%2] // 20 reads of each version in turn
		if i%10 == 5 {
			// The agent's own edit, then its certificate.
			next := versions[(i/20+1)%2]
			if err := l.Edited("/w/f", content, next, i); err != nil {
				b.Fatal(err)
			}
			content = next
		}
		n := ledger.CountLines(content)
		r := ledger.Request{Path: "/w/f", Shown: "f", Content: content, Start: 1, End: n, Turn: i}
		c0, start := threadCPU(), time.Now()
		a := l.Read(r)
		if err := l.Record(r, a, ledger.Range{Start: 1, End: n}, ledger.Tokens{}); err != nil {
			b.Fatal(err)
		}
		wall = append(wall, time.Since(start))
		cpu = append(cpu, threadCPU()-c0)
	}
	return cpu, wall
}

// outlineTime times building a first read's outline.
func outlineTime(b *testing.B, name string, src []byte) time.Duration {
	e := newBenchEnv(b, name, src)
	lines := splitLines(string(src))
	start := time.Now()
	if readOutline(context.Background(), e.env, "/w/"+name, name, src, lines, &readFileParams{}) == nil {
		b.Errorf("%s: no outline", name)
	}
	return time.Since(start)
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(int(p*float64(len(s))), len(s)-1)]
}
