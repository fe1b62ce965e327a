package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultMaxFileSize is used when WalkOptions.MaxFileSize is 0.
const DefaultMaxFileSize = 1 << 20

// Skip reasons for symlinks. Unreadable directories and ignore files carry
// the underlying error text instead.
const (
	ReasonSymlink        = "symlink"
	ReasonSymlinkOutside = "symlink outside root"
	ReasonBrokenSymlink  = "broken symlink" // dangling target or a link loop
)

// Names of the per-directory ignore files, lowest precedence first.
var ignoreFileNames = [...]string{".gitignore", ".ignore", ".parleyignore"}

// WalkOptions configures Walk and Ignored.
type WalkOptions struct {
	// MaxFileSize: larger files are reported with TooLarge=true. 0 means
	// DefaultMaxFileSize, a negative value means no limit.
	MaxFileSize int64
	// Excludes are extra gitignore-style lines from config, relative to the
	// root. They take precedence over every ignore file, so a "!" line here
	// can re-include something a .gitignore excludes.
	Excludes []string
	// NoBuiltinExcludes disables the built-in VCS/tooling/build-output rules.
	NoBuiltinExcludes bool
}

// Entry is one regular file found by Walk.
type Entry struct {
	Rel      string // slash-separated path relative to root ("a/b.go")
	Abs      string // absolute OS path
	Size     int64
	ModTime  int64 // UnixNano
	Mode     fs.FileMode
	TooLarge bool
}

// Skip describes an entry Walk deliberately did not visit and that the user
// may want to hear about (ignored files are not reported).
type Skip struct{ Rel, Reason string }

// Walk calls visit for every regular, non-ignored file under root, in
// strictly increasing byte order of Entry.Rel (directories are ordered as if
// their name ended in "/", which makes depth-first order equal to sorted
// order). It reads directory listings, lstat information and ignore files
// only, never file contents.
//
// Symlinks are never followed; they are reported to skipped (which may be
// nil) with ReasonSymlink, ReasonSymlinkOutside or ReasonBrokenSymlink.
// Unreadable directories are reported to skipped and the walk continues.
// Non-regular files are skipped silently. A non-nil error from visit or a
// cancelled ctx stops the walk and is returned.
func Walk(ctx context.Context, root string, opts WalkOptions, visit func(Entry) error, skipped func(Skip)) error {
	w, err := newWalker(root, opts)
	if err != nil {
		return err
	}
	w.ctx, w.done, w.visit, w.skipped = ctx, ctx.Done(), visit, skipped
	if err := w.cancelled(); err != nil {
		return err
	}
	entries, err := readDirSorted(w.rootAbs)
	if err != nil {
		return fmt.Errorf("workspace root %s: %w", root, err)
	}
	return w.walkDir(w.rootAbs, "", entries, w.rootStack())
}

type walker struct {
	rootAbs  string // absolute, as given (symlinks kept) so Entry.Abs looks like the user's root
	rootReal string // symlinks evaluated, for "outside root" checks
	maxSize  int64
	builtin  bool
	config   *IgnoreRules // WalkOptions.Excludes, highest precedence; nil if none

	ctx     context.Context
	done    <-chan struct{}
	visit   func(Entry) error // nil: files are not visited (nor lstat'ed)
	skipped func(Skip)
	// dir, when set, is called for every directory the walk descends
	// into, before its entries (walkTree, for watchers).
	dir func(abs, rel string) error
}

// ignoreStack is the chain of ignore files in effect for a directory, the
// deepest (highest precedence) first. Sharing tails keeps pushes O(1).
type ignoreStack struct {
	rules  *IgnoreRules
	parent *ignoreStack
}

func newWalker(root string, opts WalkOptions) (*walker, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace root %s: not a directory", root)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
	w := &walker{rootAbs: abs, rootReal: real, maxSize: opts.MaxFileSize, builtin: !opts.NoBuiltinExcludes}
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxFileSize
	}
	if len(opts.Excludes) > 0 {
		w.config = ParseIgnore("", []byte(strings.Join(opts.Excludes, "\n")))
	}
	return w, nil
}

// rootStack returns the stack in effect before the root's own ignore files:
// just .git/info/exclude, which git ranks below every .gitignore.
func (w *walker) rootStack() *ignoreStack {
	data, err := os.ReadFile(filepath.Join(w.rootAbs, ".git", "info", "exclude"))
	if err != nil {
		return nil // absent (the common case) or .git is a worktree file
	}
	return &ignoreStack{rules: ParseIgnore("", data)}
}

func (w *walker) cancelled() error {
	select {
	case <-w.done:
		return w.ctx.Err()
	default:
		return nil
	}
}

func (w *walker) skip(rel, reason string) {
	if w.skipped != nil {
		w.skipped(Skip{Rel: rel, Reason: reason})
	}
}

func (w *walker) walkDir(abs, rel string, entries []os.DirEntry, stack *ignoreStack) error {
	if err := w.cancelled(); err != nil {
		return err
	}
	stack = w.pushIgnoreFiles(abs, rel, entries, stack)
	dir := dirInfo{abs: abs, entries: entries}
	for _, de := range entries {
		if err := w.cancelled(); err != nil {
			return err
		}
		name := de.Name()
		typ := de.Type()
		childRel := joinRel(rel, name)
		if w.excluded(&dir, childRel, name, typ.IsDir(), stack) {
			continue
		}
		childAbs := joinAbs(abs, name)
		var err error
		switch {
		case typ.IsDir():
			err = w.descend(childAbs, childRel, stack)
		case typ&fs.ModeSymlink != 0:
			w.skip(childRel, w.symlinkReason(childAbs))
		case typ.IsRegular() && w.visit != nil:
			err = w.visitFile(childAbs, childRel)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) descend(abs, rel string, stack *ignoreStack) error {
	if w.dir != nil {
		if err := w.dir(abs, rel); err != nil {
			return err
		}
	}
	entries, err := readDirSorted(abs)
	if err != nil {
		w.skip(rel, err.Error())
		if len(entries) == 0 {
			return nil
		}
		// A partial listing (e.g. an entry vanished) is still worth walking.
	}
	return w.walkDir(abs, rel, entries, stack)
}

func (w *walker) visitFile(abs, rel string) error {
	// os.Lstat on the path we built anyway; DirEntry.Info would build it again.
	info, err := os.Lstat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed since the listing; nothing to index
		}
		w.skip(rel, err.Error())
		return nil
	}
	if !info.Mode().IsRegular() {
		return nil // replaced by something else since the listing
	}
	e := Entry{
		Rel:     rel,
		Abs:     abs,
		Size:    info.Size(),
		ModTime: info.ModTime().UnixNano(),
		Mode:    info.Mode(),
	}
	e.TooLarge = w.maxSize > 0 && e.Size > w.maxSize
	return w.visit(e)
}

// symlinkReason classifies a symlink without following it for the walk.
func (w *walker) symlinkReason(abs string) string {
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return ReasonBrokenSymlink
	}
	if !within(w.rootReal, target) {
		return ReasonSymlinkOutside
	}
	return ReasonSymlink
}

// pushIgnoreFiles loads the ignore files of one directory. entries may be nil
// (single-path checks), in which case the files are probed directly.
func (w *walker) pushIgnoreFiles(abs, rel string, entries []os.DirEntry, stack *ignoreStack) *ignoreStack {
	for _, name := range ignoreFileNames {
		p := joinAbs(abs, name)
		if entries != nil {
			if !hasRegular(entries, name) {
				continue
			}
		} else if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			w.skip(joinRel(rel, name), fmt.Sprintf("unreadable ignore file: %v", err))
			continue
		}
		if rules := ParseIgnore(rel, data); rules.Len() > 0 {
			stack = &ignoreStack{rules: rules, parent: stack}
		}
	}
	return stack
}

// hasRegular reports whether entries has a regular file called name. A
// symlinked ignore file is not honoured, as in git >= 2.32 (and following it
// could read outside the root).
func hasRegular(entries []os.DirEntry, name string) bool {
	for _, de := range entries {
		if de.Name() == name {
			return de.Type().IsRegular()
		}
	}
	return false
}

// excluded decides one entry: config excludes, then ignore files deepest
// first (first decisive match wins), then the built-in rules, which rank
// lowest so an explicit "!node_modules/" can re-include.
func (w *walker) excluded(dir *dirInfo, rel, name string, isDir bool, stack *ignoreStack) bool {
	if w.config != nil {
		if m, ign := w.config.Match(rel, isDir); m {
			return ign
		}
	}
	for s := stack; s != nil; s = s.parent {
		if m, ign := s.rules.Match(rel, isDir); m {
			return ign
		}
	}
	return w.builtin && builtinExcluded(dir, name, isDir)
}

// readDirSorted lists a directory in Walk's order: bytewise by name, with
// directories compared as name+"/". Together with depth-first recursion this
// yields globally sorted Rel paths.
func readDirSorted(abs string) ([]os.DirEntry, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	slices.SortFunc(entries, func(a, b os.DirEntry) int {
		return cmpWalkKey(a.Name(), a.IsDir(), b.Name(), b.IsDir())
	})
	return entries, err
}

// cmpWalkKey compares name+"/"-if-dir keys without building them.
func cmpWalkKey(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	// One name is a prefix of the other; compare the next key byte, where
	// a directory contributes '/' and end-of-key sorts first (-1).
	next := func(s string, dir bool) int {
		switch {
		case len(s) > n:
			return int(s[n])
		case dir:
			return '/'
		}
		return -1
	}
	return cmp.Compare(next(a, aDir), next(b, bDir))
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// joinAbs is filepath.Join for a clean dir and a plain name, minus the
// Clean call, which is measurable at one call per file.
func joinAbs(dir, name string) string {
	if os.IsPathSeparator(dir[len(dir)-1]) { // the file system root
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}

// within reports whether p is root or below it; both must be clean.
func within(root, p string) bool {
	if p == root {
		return true
	}
	if strings.HasSuffix(root, string(os.PathSeparator)) { // "/" or `C:\`
		return strings.HasPrefix(p, root)
	}
	return len(p) > len(root) && p[len(root)] == os.PathSeparator && p[:len(root)] == root
}

// walkTree walks the directory rel (slash-separated, relative to root;
// "" is the root) as Walk would reach it: dir is called for rel and every
// directory below it that Walk would descend into, file (which may be nil)
// for every file Walk would visit. The caller has checked that rel itself
// is not ignored. Errors from dir or file, or a cancelled ctx, stop it.
func walkTree(ctx context.Context, root, rel string, opts WalkOptions, dir func(abs, rel string) error, file func(Entry) error) error {
	ds, err := newDirStacks(root, opts)
	if err != nil {
		return err
	}
	w := ds.w
	w.ctx, w.done, w.visit, w.dir = ctx, ctx.Done(), file, dir
	// The ignore files of rel's ancestors apply to it; its own are pushed
	// by the walk.
	stack := ds.rootStack
	if rel != "" {
		stack = ds.below(parentRel(rel))
	}
	return w.descend(ds.abs(rel), rel, stack)
}

// Ignored reports whether the file or directory rel (slash-separated,
// relative to root) would be excluded by Walk with the same options, either
// itself or because an ancestor directory is. It reads the ignore files
// along the path on every call; a watcher deciding many paths at once uses
// one dirStacks for them all.
func Ignored(root, rel string, isDir bool, opts WalkOptions) (bool, error) {
	if rel == "." || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return false, fmt.Errorf("ignored check %q: not a clean path relative to the root", rel)
	}
	ds, err := newDirStacks(root, opts)
	if err != nil {
		return false, err
	}
	return ds.ignored(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), isDir), nil
}

// dirStacks answers Ignored for paths of one root, reading each
// directory's ignore files once. Not safe for concurrent use.
type dirStacks struct {
	w         *walker
	rootStack *ignoreStack            // .git/info/exclude only
	stacks    map[string]*ignoreStack // dir rel -> in effect for its children
}

func newDirStacks(root string, opts WalkOptions) (*dirStacks, error) {
	w, err := newWalker(root, opts)
	if err != nil {
		return nil, err
	}
	return &dirStacks{w: w, rootStack: w.rootStack(), stacks: map[string]*ignoreStack{}}, nil
}

// below returns the ignore stack in effect for the entries of directory
// dir ("" is the root): its ancestors' ignore files and its own.
func (d *dirStacks) below(dir string) *ignoreStack {
	if s, ok := d.stacks[dir]; ok {
		return s
	}
	parent := d.rootStack
	if dir != "" {
		parent = d.below(parentRel(dir))
	}
	s := d.w.pushIgnoreFiles(d.abs(dir), dir, nil, parent)
	d.stacks[dir] = s
	return s
}

// ignored decides a clean slash-separated rel, as Ignored.
func (d *dirStacks) ignored(rel string, isDir bool) bool {
	parts := strings.Split(rel, "/")
	dirRel := ""
	for i, name := range parts {
		childRel := joinRel(dirRel, name)
		if d.w.excluded(&dirInfo{abs: d.abs(dirRel)}, childRel, name, isDir || i < len(parts)-1, d.below(dirRel)) {
			return true
		}
		dirRel = childRel
	}
	return false
}

func (d *dirStacks) abs(rel string) string {
	if rel == "" {
		return d.w.rootAbs
	}
	return filepath.Join(d.w.rootAbs, filepath.FromSlash(rel))
}

// parentRel is the parent directory of a slash-separated rel ("" for the
// root).
func parentRel(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}
