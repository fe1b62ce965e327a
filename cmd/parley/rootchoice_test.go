package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestChooseRoot: the automatic root never is the home directory, one
// above it or /; below home a VCS or .parley marker wins, else the nearest
// project marker, else the current directory; the explanation is asked
// for exactly when the choice may surprise.
func TestChooseRoot(t *testing.T) {
	base := realPath(t.TempDir())
	fixture.WriteTree(t, base, map[string]string{
		"home/.git/HEAD":               "ref: refs/heads/main\n",
		"home/proj/go.mod":             "module p\n",
		"home/proj/sub/deep/a.go":      "package deep\n",
		"home/proj/sub/package.json":   "{}\n",
		"home/loose/dir/a.py":          "\n",
		"home/repo/.hg/store":          "\n",
		"home/repo/mod/go.mod":         "module m\n",
		"home/repo/mod/pkg/p.go":       "package pkg\n",
		"home/pinned/.parley/x":        "\n",
		"home/pinned/in/Cargo.toml":    "\n",
		"home/net/App.sln":             "\n",
		"home/net/src/Program.cs":      "\n",
		"home/dirsuffix/x.csproj/a.cs": "\n",
		"elsewhere/tool/main.go":       "package main\n",
		"plainhome/proj/sub/a.go":      "package sub\n",
	})
	home := filepath.Join(base, "home")
	at := func(rel string) string { return filepath.Join(base, filepath.FromSlash(rel)) }
	tests := []struct {
		name, wd, home string
		want           string // relative to base
		why            string // substring of the explanation
		say            bool
		err            string // substring of the error
	}{
		{name: "project-marker-below-home-git", wd: "home/proj/sub/deep", home: home, want: "home/proj/sub", why: "nearest package.json; " + home + " has .git but is your home directory", say: true},
		{name: "project-marker-at-cwd", wd: "home/proj", home: home, want: "home/proj", why: "nearest go.mod", say: true},
		{name: "no-marker", wd: "home/loose/dir", home: home, want: "home/loose/dir", why: "no project marker; the current directory; " + home + " has .git", say: true},
		{name: "vcs-below-home-wins", wd: "home/repo/mod/pkg", home: home, want: "home/repo"},
		{name: "parley-marker-wins", wd: "home/pinned/in", home: home, want: "home/pinned"},
		{name: "dotnet-solution", wd: "home/net/src", home: home, want: "home/net", why: "nearest App.sln", say: true},
		{name: "suffix-on-a-directory-is-not-a-marker", wd: "home/dirsuffix/x.csproj", home: home, want: "home/dirsuffix/x.csproj", why: "no project marker", say: true},
		{name: "outside-home", wd: "elsewhere/tool", home: home, want: "elsewhere/tool", why: "no project marker"},
		{name: "home-without-git", wd: "plainhome/proj/sub", home: at("plainhome"), want: "plainhome/proj/sub", why: "no project marker"},
		{name: "home-unknown", wd: "home/loose/dir", home: "", want: "home"},
		{name: "home-itself", wd: "home", home: home, err: home + " is your home directory; parley does not choose it as the workspace root by itself: run parley in a project directory, or pass --root " + home},
		{name: "above-home", wd: ".", home: home, err: "is above your home directory"},
		{name: "filesystem-root", wd: "/", home: home, err: "is the filesystem root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := tt.wd
			if !filepath.IsAbs(wd) {
				wd = at(wd)
			}
			c, err := chooseRoot(wd, tt.home)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("chooseRoot = %+v, %v; want an error with %q", c, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.dir != at(tt.want) || !strings.Contains(c.why, tt.why) || c.say != tt.say {
				t.Errorf("chooseRoot = %+v; want dir %s, why with %q, say %v", c, at(tt.want), tt.why, tt.say)
			}
		})
	}
}

// TestChooseRootSymlinkedHome: a home directory reached through a
// symlink ($HOME=/link, the real directory elsewhere) is still home.
func TestChooseRootSymlinkedHome(t *testing.T) {
	base := realPath(t.TempDir())
	fixture.WriteTree(t, base, map[string]string{
		"real/.git/HEAD":    "\n",
		"real/proj/go.mod":  "module p\n",
		"real/proj/main.go": "package main\n",
	})
	link := filepath.Join(base, "link")
	if err := os.Symlink(filepath.Join(base, "real"), link); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	c, err := chooseRoot(filepath.Join(base, "real", "proj"), link)
	if err != nil || c.dir != filepath.Join(base, "real", "proj") {
		t.Fatalf("chooseRoot = %+v, %v; want the project", c, err)
	}
	if _, err := chooseRoot(filepath.Join(base, "real"), link); err == nil {
		t.Fatal("the real home directory was accepted as a root")
	}
}
