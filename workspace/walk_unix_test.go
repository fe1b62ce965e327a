//go:build unix

package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/testenv"
)

func TestWalkSymlinks(t *testing.T) {
	outside := t.TempDir()
	root := t.TempDir()
	fixture.WriteTree(t, outside, map[string]string{"secret.txt": "s", "dir/x": ""})
	fixture.WriteTree(t, root, map[string]string{"real.go": "", "sub/inner.go": "", ".gitignore": "ignored-link\n"})
	links := map[string]string{
		"out-file":     filepath.Join(outside, "secret.txt"),
		"out-dir":      filepath.Join(outside, "dir"),
		"in-file":      "real.go",
		"in-dir":       "sub",
		"sub/loop":     "..", // directory loop: must not be followed
		"self":         "self",
		"dangling":     "does-not-exist",
		"ignored-link": filepath.Join(outside, "secret.txt"),
		"rel-escape":   "../" + filepath.Base(outside) + "/secret.txt",
	}
	// rel-escape only points outside if both temp dirs share a parent.
	if filepath.Dir(outside) != filepath.Dir(root) {
		delete(links, "rel-escape")
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	got, skips := collect(t, root, WalkOptions{})
	if want := []string{".gitignore", "real.go", "sub/inner.go"}; !slices.Equal(got, want) {
		t.Errorf("visited %q, want %q", got, want)
	}
	reasons := map[string]string{}
	for _, s := range skips {
		reasons[s.Rel] = s.Reason
	}
	want := map[string]string{
		"out-file": ReasonSymlinkOutside,
		"out-dir":  ReasonSymlinkOutside,
		"in-file":  ReasonSymlink,
		"in-dir":   ReasonSymlink,
		"sub/loop": ReasonSymlink,
		"self":     ReasonBrokenSymlink,
		"dangling": ReasonBrokenSymlink,
	}
	if _, ok := links["rel-escape"]; ok {
		want["rel-escape"] = ReasonSymlinkOutside
	}
	for rel, reason := range want {
		if reasons[rel] != reason {
			t.Errorf("skip %s: reason %q, want %q", rel, reasons[rel], reason)
		}
	}
	if len(reasons) != len(want) {
		t.Errorf("skips %v, want exactly %v (ignored links are silent)", reasons, want)
	}
}

func TestWalkRootIsSymlink(t *testing.T) {
	real := t.TempDir()
	fixture.WriteTree(t, real, map[string]string{"a.go": ""})
	if err := os.Symlink("a.go", filepath.Join(real, "l")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "root")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	got, skips := collect(t, link, WalkOptions{})
	if !slices.Equal(got, []string{"a.go"}) || len(skips) != 1 || skips[0].Reason != ReasonSymlink {
		t.Errorf("got %q skips %v", got, skips)
	}
}

func TestWalkNonRegularSilent(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.go": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		testenv.SkipPlatform(t, "mkfifo: %v", err)
	}
	got, skips := collect(t, root, WalkOptions{})
	if !slices.Equal(got, []string{"a.go"}) || len(skips) != 0 {
		t.Errorf("got %q skips %v", got, skips)
	}
}

func TestWalkUnreadableDir(t *testing.T) {
	if !testenv.Unprivileged(t) {
		return
	}
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.go": "", "locked/x.go": "", "z.go": ""})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if _, err := os.ReadDir(locked); err == nil {
		t.Fatal("chmod 0 did not make the directory unreadable")
	}
	got, skips := collect(t, root, WalkOptions{})
	if !slices.Equal(got, []string{"a.go", "z.go"}) {
		t.Errorf("visited %q", got)
	}
	if len(skips) != 1 || skips[0].Rel != "locked" || skips[0].Reason == "" {
		t.Errorf("skips %v", skips)
	}
}
