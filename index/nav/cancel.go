package nav

import (
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/syntax"
)

// ResolveGen numbers the Python and TypeScript resolutions begun so far.
func ResolveGen(s *index.Store) uint64 { return syntax.CacheOf(s).ResolveGen() }

// CancelResolutions stops the store's resolutions at their next step,
// those running and those begun until ResumeResolutions: a caller that no
// longer wants an answer (the language server's late resolution, past its
// budget) frees the store for the next. Their answers are incomplete;
// CancelledSince tells.
func CancelResolutions(s *index.Store) { syntax.CacheOf(s).Cancel() }

// ResumeResolutions lets resolutions begun from now on run, after
// CancelResolutions.
func ResumeResolutions(s *index.Store) { syntax.CacheOf(s).Resume() }

// CancelledSince reports whether a resolution begun after ResolveGen
// returned gen may have been cancelled.
func CancelledSince(s *index.Store, gen uint64) bool { return syntax.CacheOf(s).CancelledSince(gen) }
