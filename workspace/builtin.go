package workspace

import (
	"os"
	"strings"
)

// dirInfo describes the directory whose children are being decided, so the
// context-aware built-in rules can look at siblings. entries is the listing
// when Walk has it; nil means probe the file system (Ignored).
type dirInfo struct {
	abs     string
	entries []os.DirEntry
	listed  bool // entries were loaded lazily for a suffix probe
}

// has reports whether the directory contains an entry called name.
func (d *dirInfo) has(name string) bool {
	if d.entries == nil && !d.listed {
		_, err := os.Lstat(joinAbs(d.abs, name))
		return err == nil
	}
	for _, de := range d.entries {
		if de.Name() == name {
			return true
		}
	}
	return false
}

// hasSuffix reports whether some entry name ends in one of the suffixes.
func (d *dirInfo) hasSuffix(suffixes ...string) bool {
	if d.entries == nil && !d.listed {
		d.entries, _ = os.ReadDir(d.abs) // best effort: unreadable means "no"
		d.listed = true
	}
	for _, de := range d.entries {
		for _, s := range suffixes {
			if strings.HasSuffix(de.Name(), s) {
				return true
			}
		}
	}
	return false
}

// builtinExcluded implements the default exclusions. VCS metadata, tool
// caches and our own .parley directory go by name alone (whatever their
// type: a submodule's .git is a file). Build-output names are common words
// that are also real source directories (GOROOT has go/build, cmd/dist,
// cmd/internal/obj), so they are excluded only as directories and only next
// to the project file of a tool that produces them.
func builtinExcluded(dir *dirInfo, name string, isDir bool) bool {
	switch name {
	case ".git", ".hg", ".svn", "node_modules", "__pycache__", ".mypy_cache",
		".pytest_cache", ".tox", ".gradle", ".idea", ".vs", ".next", ".nuxt", ".parley":
		return true
	}
	if !isDir {
		return false
	}
	switch name {
	case "target":
		return dir.has("Cargo.toml") || dir.has("pom.xml") || dir.has("build.sbt")
	case "build":
		return dir.has("build.gradle") || dir.has("build.gradle.kts") || dir.has("CMakeLists.txt") ||
			dir.has("setup.py") || dir.has("pyproject.toml") || dir.has("package.json")
	case "dist", "out":
		return dir.has("package.json") || dir.has("setup.py") || dir.has("pyproject.toml")
	case "bin", "obj":
		return dir.hasSuffix(".csproj", ".fsproj")
	case "venv", ".venv", "env":
		// A virtualenv is recognised by its own marker, not its parent.
		fi, err := os.Lstat(joinAbs(joinAbs(dir.abs, name), "pyvenv.cfg"))
		return err == nil && fi.Mode().IsRegular()
	}
	return false
}
