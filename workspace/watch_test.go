package workspace

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fixture"
)

// watchGuard bounds every wait for a batch; reaching it fails the test.
const watchGuard = 10 * time.Second

// watchLog receives a Watcher's batches and remembers every path seen.
type watchLog struct {
	t       *testing.T
	batches chan WatchBatch
	seen    map[string]WatchOp // last op per Rel
}

func startWatch(t *testing.T, root string, opts WalkOptions) (*Watcher, *watchLog) {
	t.Helper()
	l := &watchLog{t: t, batches: make(chan WatchBatch, 100), seen: map[string]WatchOp{}}
	w, err := Watch(root, WatchOptions{
		Walk: opts, Delay: 10 * time.Millisecond,
		OnBatch: func(b WatchBatch) { l.batches <- b },
		OnError: func(err error) { t.Errorf("watch error: %v", err) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, l
}

// waitFor reads batches until rel has been reported with op.
func (l *watchLog) waitFor(rel string, op WatchOp) {
	l.t.Helper()
	timer := time.NewTimer(watchGuard)
	defer timer.Stop()
	for {
		if got, ok := l.seen[rel]; ok && got == op {
			return
		}
		select {
		case b := <-l.batches:
			for i, ev := range b.Events {
				if i > 0 && b.Events[i-1].Rel >= ev.Rel {
					l.t.Errorf("batch not sorted by path: %v", b.Events)
				}
				l.seen[ev.Rel] = ev.Op
			}
		case <-timer.C:
			l.t.Fatalf("%s %s not reported within %s; seen %v", rel, op, watchGuard, l.seen)
		}
	}
}

// never fails if any path starting with one of prefixes was reported.
func (l *watchLog) never(prefixes ...string) {
	l.t.Helper()
	for rel := range l.seen {
		for _, p := range prefixes {
			if strings.HasPrefix(rel, p) {
				l.t.Errorf("%s was reported (%s) but is excluded", rel, l.seen[rel])
			}
		}
	}
}

func TestWatchReportsWhatTheWalkWouldList(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		".gitignore":         "*.log\nskip/\n",
		"src/old.go":         "package src\n",
		"src/gone.go":        "package src\n",
		"skip/a.go":          "",
		"node_modules/m.js":  "",
		"src/build/x.go":     "", // "build" next to no project file: a source dir
		"excluded/by/cfg.go": "",
	})
	w, l := startWatch(t, root, WalkOptions{Excludes: []string{"excluded/"}})
	// excluded/ is left out by the config rule, skip/ by .gitignore,
	// node_modules by the built-in rules.
	if w.Dirs() != 3 {
		t.Errorf("watching %d directories, want 3 (root, src, src/build)", w.Dirs())
	}
	write := func(rel, content string) {
		t.Helper()
		fixture.WriteTree(t, root, map[string]string{rel: content})
	}
	// Changes in excluded places come first; the file after them is the
	// marker that they had their chance to be reported.
	write("skip/b.go", "")
	write("node_modules/n.js", "")
	write("excluded/by/more.go", "")
	write("debug.log", "x")
	write("src/build/y.go", "package build\n")
	l.waitFor("src/build/y.go", WatchCreated)
	l.never("skip/", "node_modules/", "excluded/", "debug.log")

	write("src/old.go", "package src\n\nfunc F() {}\n")
	l.waitFor("src/old.go", WatchChanged)
	if err := os.Remove(filepath.Join(root, "src", "gone.go")); err != nil {
		t.Fatal(err)
	}
	l.waitFor("src/gone.go", WatchRemoved)
	if err := os.Rename(filepath.Join(root, "src", "old.go"), filepath.Join(root, "src", "new.go")); err != nil {
		t.Fatal(err)
	}
	l.waitFor("src/old.go", WatchRemoved)
	l.waitFor("src/new.go", WatchCreated)

	// A new directory tree is watched, and files written into it before
	// the watch was in place are reported too.
	write("fresh/deep/first.go", "")
	l.waitFor("fresh/deep/first.go", WatchCreated)
	write("fresh/deep/second.go", "")
	l.waitFor("fresh/deep/second.go", WatchCreated)
	// An excluded new directory is not.
	write("fresh/node_modules/p.js", "")
	write("fresh/marker.go", "")
	l.waitFor("fresh/marker.go", WatchCreated)
	l.never("fresh/node_modules")

	// When the ignore rules change, directories they no longer exclude
	// are watched.
	write(".gitignore", "*.log\n")
	l.waitFor(".gitignore", WatchChanged)
	write("skip/c.go", "")
	l.waitFor("skip/c.go", WatchCreated)
}

func TestWatchCloseStopsCallbacks(t *testing.T) {
	root := t.TempDir()
	calls := make(chan struct{}, 10)
	w, err := Watch(root, WatchOptions{Delay: time.Millisecond, OnBatch: func(WatchBatch) { calls <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	fixture.WriteTree(t, root, map[string]string{"a.go": ""})
	select {
	case <-calls:
	case <-time.After(watchGuard):
		t.Fatal("no batch for a.go")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := Watch(filepath.Join(root, "missing"), WatchOptions{OnBatch: func(WatchBatch) {}}); err == nil {
		t.Error("Watch of a missing root succeeded")
	}
	if _, err := Watch(root, WatchOptions{}); err == nil {
		t.Error("Watch without OnBatch succeeded")
	}
}

func TestWatchBatchMerge(t *testing.T) {
	tests := []struct {
		name string
		ops  []WatchOp
		want WatchOp
	}{
		{"created then written", []WatchOp{WatchCreated, WatchChanged}, WatchCreated},
		{"removed then created (save by rename)", []WatchOp{WatchRemoved, WatchCreated}, WatchChanged},
		{"written then removed", []WatchOp{WatchChanged, WatchRemoved}, WatchRemoved},
		{"created then removed", []WatchOp{WatchCreated, WatchRemoved}, WatchRemoved},
		{"written twice", []WatchOp{WatchChanged, WatchChanged}, WatchChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Merged within one builder and across two (a batch gathered
			// while the previous one was being delivered).
			var one, first, second batchBuilder
			for i, op := range tt.ops {
				one.add("/r/a", "a", op)
				if i == 0 {
					first.add("/r/a", "a", op)
				} else {
					second.add("/r/a", "a", op)
				}
			}
			first.merge(&second)
			for _, b := range []*batchBuilder{&one, &first} {
				got := b.batch().Events
				if len(got) != 1 || got[0].Op != tt.want {
					t.Errorf("events %v, want one %s", got, tt.want)
				}
			}
		})
	}
}

// BenchmarkWatchGOROOT sets up (and closes) a watcher on GOROOT/src: the
// cost `parley chat` and the language server pay per root at start.
func BenchmarkWatchGOROOT(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		b.Skip("GOROOT/src not available")
	}
	var dirs int
	for b.Loop() {
		w, err := Watch(src, WatchOptions{OnBatch: func(WatchBatch) {}, OnError: func(err error) { b.Fatal(err) }})
		if err != nil {
			b.Fatal(err)
		}
		dirs = w.Dirs()
		w.Close()
	}
	b.ReportMetric(float64(dirs), "dirs")
}

// BenchmarkWatchFilter is the cost of deciding whether the paths of a
// batch belong to the workspace: 1000 files of GOROOT/src per op, as a
// branch switch might change.
func BenchmarkWatchFilter(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		b.Skip("GOROOT/src not available")
	}
	var rels []string
	Walk(context.Background(), src, WalkOptions{}, func(e Entry) error {
		if len(rels) < 1000 {
			rels = append(rels, e.Rel)
		}
		return nil
	}, nil)
	for b.Loop() {
		ds, err := newDirStacks(src, WalkOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, rel := range rels {
			if ds.ignored(rel, false) {
				b.Fatalf("%s ignored", rel)
			}
		}
	}
}
