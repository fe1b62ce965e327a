package vector

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestSurvivesKill inserts vectors one by one in a child process, SIGKILLs
// it mid-stream, and checks that the store reopens with every insert the
// child had reported done (at most the one in flight is lost, none is
// half-stored) and that search finds each of them.
func TestSurvivesKill(t *testing.T) {
	if dir := os.Getenv("PARLEY_VECTOR_KILL_DIR"); dir != "" {
		killChild(t, dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSurvivesKill$")
	cmd.Env = append(os.Environ(), "PARLEY_VECTOR_KILL_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill after the child reports 300 inserts (it goes on inserting, and
	// a snapshot was written after 128 of them).
	sc := bufio.NewScanner(out)
	done := 0
	for sc.Scan() {
		n, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "added "))
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("child said %q", sc.Text())
		}
		done = n
		if done == 300 {
			break
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if done != 300 {
		t.Fatalf("child reported %d inserts", done)
	}

	d, closeDB := openAt(t, dir)
	defer closeDB()
	info, err := d.Info("k")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := d.IDs("k")
	if err != nil {
		t.Fatal(err)
	}
	if info.Count != len(ids) || len(ids) < done {
		t.Fatalf("after the kill: info count %d, %d vectors, %d reported done", info.Count, len(ids), done)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := 1; i <= len(ids); i++ {
		v := randVec(r, 16)
		res, err := d.Search("k", v, 1)
		if err != nil || len(res) != 1 || res[0].ID != uint64(i) || res[0].Score < 0.999 {
			t.Fatalf("vector %d not found by its own vector: %+v, %v", i, res, err)
		}
		if got, err := d.Get("k", uint64(i)); err != nil || got.Text != fmt.Sprint("vector ", i) {
			t.Fatalf("vector %d: %+v, %v", i, got, err)
		}
	}
	// The store goes on: a new insert after reopening gets the next ID.
	if got, err := d.Add("k", []Item{{Vector: randVec(r, 16)}}, ""); err != nil || got[0] != uint64(len(ids)+1) {
		t.Errorf("insert after reopening: %v, %v", got, err)
	}
}

func killChild(t *testing.T, dir string) {
	SnapshotEvery = 128
	d, _ := openAt(t, dir)
	if _, err := d.Create("k", 16); err != nil && !errors.Is(err, ErrInvalid) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := 1; ; i++ {
		if _, err := d.Add("k", []Item{{Vector: randVec(r, 16), Text: fmt.Sprint("vector ", i)}}, ""); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("added %d\n", i)
	}
}
