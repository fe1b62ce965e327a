package index

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/workspace"
)

// TestWorkQueue: jobs come out in walk order while the walk still runs,
// the queue ends only once the walk ended and is drained, and a cancelled
// consumer stops waiting.
func TestWorkQueue(t *testing.T) {
	q := newWorkQueue()
	q.push(job{entry: workspace.Entry{Rel: "a"}, id: 1})
	if j, ok := q.next(context.Background()); !ok || j.entry.Rel != "a" {
		t.Fatalf("next = %+v, %v; want a before the walk ends", j, ok)
	}
	got := make(chan string)
	go func() {
		for {
			j, ok := q.next(context.Background())
			if !ok {
				close(got)
				return
			}
			got <- j.entry.Rel
		}
	}()
	q.push(job{entry: workspace.Entry{Rel: "b"}, id: 2})
	if r := <-got; r != "b" {
		t.Fatalf("got %q, want b", r)
	}
	q.push(job{entry: workspace.Entry{Rel: "c"}, id: 3})
	q.close(nil)
	var rest []string
	for r := range got {
		rest = append(rest, r)
	}
	if len(rest) != 1 || rest[0] != "c" {
		t.Fatalf("after close: %v, want [c]", rest)
	}

	idle := newWorkQueue()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := idle.next(ctx); ok {
		t.Fatal("next on a cancelled context returned a job")
	}
}

// TestIndexWalkError: a root that cannot be walked fails the run before
// anything is stored.
func TestIndexWalkError(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.go": "package a\nfunc A() {}\n"})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	_, err := st.Index(context.Background(), root+"/missing", Options{})
	if err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the walk's error", err)
	}
	if n := len(st.Files()); n != 1 {
		t.Fatalf("after a failed walk: %d files, want the 1 indexed before", n)
	}
}

// TestIndexProgressTotals: every progress report carries the run's final
// totals although extraction starts during the walk, also when the results
// held during the walk reach maxHeld and the workers wait for the walk.
func TestIndexProgressTotals(t *testing.T) {
	for _, held := range []int{1024, 1} {
		t.Run(fmt.Sprint(held), func(t *testing.T) {
			old := maxHeld
			maxHeld = held
			t.Cleanup(func() { maxHeld = old })
			root := t.TempDir()
			files := map[string]string{}
			for i := range 60 {
				files[fmt.Sprintf("p%d/f%02d.go", i%7, i)] = fmt.Sprintf("package p\nfunc F%d() {}\n", i)
			}
			fixture.WriteTree(t, root, files)
			st := openTestStore(t, t.TempDir())
			defer st.Close()
			done := 0
			sum, err := st.Index(context.Background(), root, Options{Workers: 2, Progress: func(p Progress) {
				done++
				if p.Total != 60 || p.Done != done {
					t.Errorf("report %d: %d of %d files", done, p.Done, p.Total)
				}
			}})
			if err != nil || sum.Changed != 60 || sum.Files != 60 || done != 60 {
				t.Fatalf("Index = %+v, %v after %d reports", sum, err, done)
			}
		})
	}
}

// TestIndexMaxFiles: a walk that lists more files than Options.MaxFiles
// stops the run with a *TooManyFilesError naming the root, and a store
// that was empty is left empty (also after reopening) although files were
// extracted before the walk reached the limit, so a later query cannot
// answer from part of the refused tree; with OverLimit the run goes on
// and OverLimit is called once.
func TestIndexMaxFiles(t *testing.T) {
	tests := []struct {
		name      string
		limit     int
		indexed   int // files indexed (without a limit) before the run
		overLimit bool
		wantErr   bool
		wantFiles int // after the run and a reopen; -1: at least indexed
		wantCalls int
		// waitHeld: the walk waits, at the limit-th file, until the
		// collector holds this many extracted files.
		waitHeld int
	}{
		{name: "over", limit: 5, wantErr: true, wantFiles: 0, waitHeld: 4},
		{name: "over-nonempty", limit: 5, indexed: 3, wantErr: true, wantFiles: -1},
		{name: "at", limit: 10, wantFiles: 10},
		{name: "none", limit: 0, wantFiles: 10},
		{name: "warn", limit: 5, overLimit: true, wantFiles: 10, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, dir := t.TempDir(), t.TempDir()
			files := map[string]string{}
			for i := range 10 {
				files[fmt.Sprintf("d%d/f%d.go", i%3, i)] = fmt.Sprintf("package d\nfunc F%d() {}\n", i)
			}
			st := openTestStore(t, dir)
			if tt.indexed > 0 {
				first := map[string]string{}
				for i := range tt.indexed {
					first[fmt.Sprintf("d%d/f%d.go", i%3, i)] = files[fmt.Sprintf("d%d/f%d.go", i%3, i)]
				}
				fixture.WriteTree(t, root, first)
				mustIndex(t, st, root)
			}
			fixture.WriteTree(t, root, files)
			calls := 0
			opts := Options{MaxFiles: tt.limit, Workers: 2}
			if tt.waitHeld > 0 {
				opts.Skip = waitHeldAt(t, tt.limit, tt.waitHeld)
			}
			if tt.overLimit {
				opts.OverLimit = func(limit int) {
					calls++
					if limit != tt.limit {
						t.Errorf("OverLimit(%d), want %d", limit, tt.limit)
					}
				}
			}
			_, err := st.Index(context.Background(), root, opts)
			var tooMany *TooManyFilesError
			if got := errors.As(err, &tooMany); got != tt.wantErr {
				t.Fatalf("Index: %v; want a TooManyFilesError: %v", err, tt.wantErr)
			}
			if tt.wantErr && (tooMany.Root != root || tooMany.Limit != tt.limit) {
				t.Errorf("error = %+v, want root %s and limit %d", tooMany, root, tt.limit)
			}
			if calls != tt.wantCalls {
				t.Errorf("OverLimit called %d times, want %d", calls, tt.wantCalls)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			st = openTestStore(t, dir)
			defer st.Close()
			n := len(st.Files())
			if tt.wantFiles >= 0 && n != tt.wantFiles || tt.wantFiles < 0 && n < tt.indexed {
				t.Errorf("%d files stored after the run, want %d (-1: at least %d)", n, tt.wantFiles, tt.indexed)
			}
		})
	}
}

// waitHeldAt returns an Options.Skip that skips nothing but makes the walk
// wait, at its at-th file, until the collector holds n results.
func waitHeldAt(t *testing.T, at, n int) func(string) bool {
	held := make(chan int, 64)
	testHookHeld = func(n int) { held <- n }
	t.Cleanup(func() { testHookHeld = nil })
	listed := 0
	return func(string) bool {
		if listed++; listed != at {
			return false
		}
		timeout := time.After(20 * time.Second)
		for {
			select {
			case got := <-held:
				if got >= n {
					return false
				}
			case <-timeout:
				t.Errorf("the collector did not hold %d results", n)
				return false
			}
		}
	}
}
