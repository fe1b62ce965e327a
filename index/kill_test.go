package index

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestIndexSurvivesKill runs an indexer in a child process, SIGKILLs it in
// the middle of a run, and checks that the store opens and the next run
// completes with every file correct.
func TestIndexSurvivesKill(t *testing.T) {
	if os.Getenv("PARLEY_KILL_CHILD") != "" {
		killChild()
		return
	}
	root, data := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("pkg%02d/f%03d.go", i%20, i)] = fmt.Sprintf("package p\n\n// F%d is a function.\nfunc F%d() int { return G%d() }\n", i, i, i)
	}
	fixture.WriteTree(t, root, files)

	cmd := exec.Command(os.Args[0], "-test.run=^TestIndexSurvivesKill$")
	cmd.Env = append(os.Environ(), "PARLEY_KILL_CHILD=1", "PARLEY_KILL_ROOT="+root, "PARLEY_KILL_DATA="+data)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "mid-run\n" {
		cmd.Process.Kill()
		t.Fatalf("child said %q, %v", line, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	st := openTestStore(t, data)
	defer st.Close()
	survived := len(st.Files())
	sum := mustIndex(t, st, root)
	if survived == 0 || survived >= 400 || sum.Unchanged != survived {
		t.Errorf("%d files survived the kill, %d unchanged on resume; want a partial store that is reused", survived, sum.Unchanged)
	}
	if sum.Files != 400 {
		t.Fatalf("after kill: %+v", sum)
	}
	for _, i := range []int{0, 199, 399} {
		name := fmt.Sprintf("F%d", i)
		want := filepath.ToSlash(fmt.Sprintf("pkg%02d/f%03d.go", i%20, i))
		if got := defPaths(t, st, name); len(got) != 1 || got[0] != want {
			t.Errorf("defs %s = %v, want [%s]", name, got, want)
		}
	}
}

// killChild indexes until half-way with tiny bulk chunks, so the store on
// disk has real partial content, then announces itself and waits to be
// killed.
func killChild() {
	flushEvery = 0
	bulkChunkBytes = 2 << 10
	st, err := Open(os.Getenv("PARLEY_KILL_DATA"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	st.Index(context.Background(), os.Getenv("PARLEY_KILL_ROOT"), Options{Workers: 1, Progress: func(p Progress) {
		if p.Done == p.Total/2 {
			time.Sleep(200 * time.Millisecond) // let queued chunks land
			fmt.Println("mid-run")
			select {}
		}
	}})
	os.Exit(3)
}
