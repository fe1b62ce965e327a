package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/index"
)

// The automatic workspace root.
//
// Without --root, parley takes the nearest directory at or above the
// current one that holds .parley, .git or .hg, as git finds its
// repository, so a repository with several modules is one workspace. A
// home directory kept under git by a dotfiles manager made that rule pick
// the home directory, and the first query indexed every project and cache
// under it. So the walk up stops below the home directory (and below /):
// a marker there, or above, is ignored; the nearest project marker
// (go.mod, package.json, ...) found on the way is the root instead, else
// the current directory. Run in the home directory itself (or / or above
// home) parley chooses no root: the user passes --root.
//
// The file limit (--max-files) is the second guard: an automatic root
// whose walk lists more files stops the CLI with a message naming the
// flag; an explicit --root is never limited.

// defaultMaxFiles is --max-files' default: far above any repository
// parley is meant for (the Linux kernel has ~90,000 files), far below a
// home directory with a few checkouts and caches in it.
const defaultMaxFiles = 300_000

// vcsMarkers make a directory the root of everything below it.
var vcsMarkers = []string{".parley", ".git", ".hg"}

// projectMarkers make a directory a project of its own; they choose the
// root only when no VCS marker below the home directory does.
var projectMarkers = []string{
	"go.mod", "go.work", "package.json", "deno.json", "tsconfig.json",
	"pyproject.toml", "setup.py", "setup.cfg", "Pipfile",
	"Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts",
	"settings.gradle", "settings.gradle.kts", "build.sbt",
	"composer.json", "Gemfile", "mix.exs", "Package.swift", "pubspec.yaml",
}

// projectSuffixes are project files known by their extension (.NET).
var projectSuffixes = []string{".sln", ".csproj", ".fsproj"}

// rootChoice is an automatically chosen workspace root.
type rootChoice struct {
	dir string
	// why explains the choice; say is set when it may surprise (a marker
	// at or above home was ignored, or a project marker above the current
	// directory chose the root).
	why string
	say bool
}

// chooseRoot picks the workspace root for a command run in wd, home being
// the user's home directory ("" if unknown). It fails when wd is the home
// directory, above it or /: indexing that is never what a bare command
// means.
func chooseRoot(wd, home string) (rootChoice, error) {
	wd, home = realPath(wd), realPath(home)
	if tooHigh(wd, home) {
		return rootChoice{}, fmt.Errorf("%s is %s; parley does not choose it as the workspace root by itself: run parley in a project directory, or pass --root %s to index it", wd, describeHigh(wd, home), wd)
	}
	var project, marker string
	d := wd
	for ; !tooHigh(d, home); d = filepath.Dir(d) {
		if hasAny(d, vcsMarkers) != "" {
			return rootChoice{dir: d}, nil
		}
		if project == "" {
			if m := projectMarker(d); m != "" {
				project, marker = d, m
			}
		}
	}
	c := rootChoice{dir: wd, why: "no project marker; the current directory"}
	if project != "" {
		c = rootChoice{dir: project, why: "nearest " + marker, say: project != wd}
	}
	// d is the first directory too high to be a root; say if it, or one
	// above it, is what the plain VCS rule would have chosen.
	for a := d; ; a = filepath.Dir(a) {
		if m := hasAny(a, vcsMarkers); m != "" {
			c.why += fmt.Sprintf("; %s has %s but is %s", a, m, describeHigh(a, home))
			c.say = true
			break
		}
		if filepath.Dir(a) == a {
			break
		}
	}
	return c, nil
}

// tooHigh reports whether d must not be an automatic root: /, the home
// directory or one of its ancestors.
func tooHigh(d, home string) bool {
	if filepath.Dir(d) == d {
		return true
	}
	return home != "" && (d == home || strings.HasPrefix(home, d+string(filepath.Separator)))
}

func describeHigh(d, home string) string {
	switch {
	case filepath.Dir(d) == d:
		return "the filesystem root"
	case d == home:
		return "your home directory"
	}
	return "above your home directory"
}

// hasAny returns the first of names present in dir, or "".
func hasAny(dir string, names []string) string {
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return name
		}
	}
	return ""
}

// projectMarker returns the project file dir holds, or "". One listing
// covers the fixed names and the suffixes; an unreadable directory has
// none.
func projectMarker(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		name := e.Name()
		for _, m := range projectMarkers {
			if name == m {
				return name
			}
		}
		for _, suf := range projectSuffixes {
			if strings.HasSuffix(name, suf) && !e.IsDir() {
				return name
			}
		}
	}
	return ""
}

// realPath cleans p and evaluates its symlinks when it can, so that a
// home directory reached through a link compares equal to the current
// directory's real path.
func realPath(p string) string {
	if p == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return filepath.Clean(p)
}

// homeDir is the user's home directory, "" if unknown ($HOME, so tests
// can set it).
func homeDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return home
}

// indexLimit is the file limit of this command's index runs: none for a
// root the user named (--root, or index PATH).
func (g *globals) indexLimit() int {
	if g.rootExplicit {
		return 0
	}
	return g.maxFiles
}

// limitError words a run the file limit stopped as what to do about it;
// nil if err is not that.
func limitError(err error) error {
	var tooMany *index.TooManyFilesError
	if !errors.As(err, &tooMany) {
		return nil
	}
	return fmt.Errorf("workspace root %s has more than %d files, the --max-files limit for a root parley chose itself; pass --root %s (or a higher --max-files, 0 for no limit) to index it anyway, or run parley in a project directory",
		tooMany.Root, tooMany.Limit, tooMany.Root)
}
