package permission

import (
	"errors"
	"path"
	"strings"
)

// cleanGlob normalises a path pattern: slash-separated, without a leading
// "./" or "/" (paths are root-relative).
func cleanGlob(p string) string {
	p = strings.TrimSpace(p)
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		default:
			return strings.TrimSuffix(p, "/")
		}
	}
}

// checkGlob reports a malformed pattern.
func checkGlob(p string) error {
	if p == "" {
		return errors.New("empty path pattern")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return errors.New("malformed glob segment " + `"` + seg + `"`)
		}
	}
	return nil
}

// matchGlob matches a root-relative path against a doublestar pattern:
// "*", "?" and "[...]" match within one segment, a "**" segment matches
// any number of segments (including none), and a pattern that matches a
// directory ("src/**") also matches the directory itself.
func matchGlob(pattern, name string) bool {
	name = strings.TrimPrefix(name, "./")
	if name == "." {
		name = ""
	}
	var segs []string
	if name != "" {
		segs = strings.Split(name, "/")
	}
	return matchSegs(strings.Split(pattern, "/"), segs)
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			for i := 0; i <= len(segs); i++ {
				if matchSegs(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// escapeGlob quotes a literal path for use as a pattern.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
