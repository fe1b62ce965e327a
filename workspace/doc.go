// Package workspace is the file-system layer under the indexer and every
// tool: it decides which files belong to a workspace and how paths map onto
// it, without reading file contents.
//
//   - Walk enumerates the regular files under a root in sorted Rel order,
//     honouring nested .gitignore/.ignore/.parleyignore files,
//     .git/info/exclude, config excludes and built-in exclusions
//     (VCS/tool caches always, build outputs only next to the project file
//     that produces them). It reads directory listings, lstat data and
//     ignore files only, so it stays fast on large trees (GOROOT/src in a
//     few tens of milliseconds warm). Ignored answers the same question for
//     one path, for file-watcher events.
//   - ParseIgnore/IgnoreRules implement gitignore(5) matching with git's
//     wildmatch semantics, compiled once per file.
//   - DetectLanguage/NeedsHead name a file's language from its name or,
//     failing that, its shebang; IsBinary sniffs the first 8 KiB.
//   - Lines converts between byte offsets (what the index stores) and LSP
//     positions in UTF-16, UTF-8 or UTF-32 units, clamping characters past
//     a line's end as the LSP specification requires.
//   - Overlays hold open documents (version, content, hash, saved) and
//     apply LSP content changes (ApplyChanges) in the client's encoding.
//   - Roots.Resolve is the single gate for tool-supplied paths: it rejects
//     NUL bytes, ".." escapes and symlinks leading out of every root.
//   - Watch watches a root's tree with fsnotify under Walk's rules and
//     reports changed paths in debounced batches (the language server's
//     and `parley chat`'s watcher). Its owner must Close it; see Watcher
//     for the goroutines and callbacks.
//
// Concurrency: all functions are safe for concurrent use. IgnoreRules and
// Roots are immutable after construction. Walk calls visit and skipped
// sequentially from the calling goroutine, so callbacks need no locking of
// their own, and concurrent Walks share no state. Nothing here protects
// against the file system changing between a check and a later open.
package workspace
