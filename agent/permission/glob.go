package permission

import (
	"strings"

	"github.com/parleyhq/parley/internal/pathglob"
)

// compileGlob normalises and compiles a path pattern: slash-separated,
// root-relative (a leading "./" or "/" is dropped), without a trailing
// "/". The pattern syntax is pathglob's (doublestar); a pattern it cannot
// honour is an error, so a rule never loads that would silently not match.
func compileGlob(p string) (pathglob.Pattern, error) {
	p = strings.TrimSpace(p)
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		default:
			return pathglob.Compile(strings.TrimSuffix(p, "/"))
		}
	}
}
