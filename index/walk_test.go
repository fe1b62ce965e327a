package index

import (
	"context"
	"errors"
	"fmt"
	"testing"

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
