package workspace

import "strings"

// This file is a direct, unoptimised-for-Go port of git's wildmatch.c
// (dowild with WM_PATHNAME, no WM_CASEFOLD). It exists only as an oracle for
// differential tests of compileGlob, which uses a different algorithm.

const (
	wmMatch           = 0
	wmNoMatch         = 1
	wmAbortAll        = -1
	wmAbortToStarStar = -2
)

func wildmatchRef(pat, text string) bool { return dowildRef(pat, 0, text, 0) == wmMatch }

// at mimics reading a NUL-terminated C string.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecialRef(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

func dowildRef(pat string, p int, text string, t int) int {
	start := p
	for ; at(pat, p) != 0; t, p = t+1, p+1 {
		pch := pat[p]
		tch := at(text, t)
		if tch == 0 && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			p++
			if tch != at(pat, p) {
				return wmNoMatch
			}
		case '?':
			if tch == '/' {
				return wmNoMatch
			}
		case '*':
			r, nt, done := starRef(pat, &p, start, text, t, tch)
			if done {
				return r
			}
			t = nt
		case '[':
			np, r := classRef(pat, p, tch)
			if r != wmMatch {
				return r
			}
			p = np
		default:
			if tch != pch {
				return wmNoMatch
			}
		}
	}
	if t < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// starRef handles '*' at pat[*p]; done=false means "continue the outer loop
// with text index nt" (the single-star-before-slash case).
func starRef(pat string, pp *int, start int, text string, t int, tch byte) (int, int, bool) {
	p := *pp + 1
	matchSlash := false
	if at(pat, p) == '*' {
		prevP := p - 2
		for p++; at(pat, p) == '*'; p++ {
		}
		if (prevP < start || pat[prevP] == '/') &&
			(at(pat, p) == 0 || at(pat, p) == '/' || (at(pat, p) == '\\' && at(pat, p+1) == '/')) {
			if at(pat, p) == '/' && dowildRef(pat, p+1, text, t) == wmMatch {
				return wmMatch, 0, true
			}
			matchSlash = true
		}
	}
	*pp = p
	if at(pat, p) == 0 {
		if !matchSlash && strings.IndexByte(text[t:], '/') >= 0 {
			return wmNoMatch, 0, true
		}
		return wmMatch, 0, true
	} else if !matchSlash && at(pat, p) == '/' {
		slash := strings.IndexByte(text[t:], '/')
		if slash < 0 {
			return wmNoMatch, 0, true
		}
		return 0, t + slash, false
	}
	for tch != 0 {
		if !isGlobSpecialRef(at(pat, p)) {
			pch := at(pat, p)
			for {
				tch = at(text, t)
				if tch == 0 || (!matchSlash && tch == '/') || tch == pch {
					break
				}
				t++
			}
			if tch != pch {
				if matchSlash {
					return wmAbortAll, 0, true
				}
				return wmAbortToStarStar, 0, true
			}
		}
		if m := dowildRef(pat, p, text, t); m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				return m, 0, true
			}
		} else if !matchSlash && tch == '/' {
			return wmAbortToStarStar, 0, true
		}
		t++
		tch = at(text, t)
	}
	return wmAbortAll, 0, true
}

// classRef matches tch against the bracket expression at pat[p]; it returns
// the index of the closing ']' and wmMatch, or a failure code.
func classRef(pat string, p int, tch byte) (int, int) {
	p++
	pch := at(pat, p)
	if pch == '^' {
		pch = '!'
	}
	negated := pch == '!'
	if negated {
		p++
		pch = at(pat, p)
	}
	var prevCh byte
	matched := false
	for {
		if pch == 0 {
			return 0, wmAbortAll
		}
		switch {
		case pch == '\\':
			p++
			pch = at(pat, p)
			if pch == 0 {
				return 0, wmAbortAll
			}
			if tch == pch {
				matched = true
			}
		case pch == '-' && prevCh != 0 && at(pat, p+1) != 0 && at(pat, p+1) != ']':
			p++
			pch = at(pat, p)
			if pch == '\\' {
				p++
				pch = at(pat, p)
				if pch == 0 {
					return 0, wmAbortAll
				}
			}
			if tch <= pch && tch >= prevCh {
				matched = true
			}
			pch = 0
		case pch == '[' && at(pat, p+1) == ':':
			p += 2
			s := p
			for at(pat, p) != 0 && at(pat, p) != ']' {
				p++
			}
			if at(pat, p) == 0 {
				return 0, wmAbortAll
			}
			i := p - s - 1
			if i < 0 || pat[p-1] != ':' {
				p = s - 2
				pch = '['
				if tch == pch {
					matched = true
				}
				break
			}
			pred := refCtype(pat[s : s+i])
			if pred == nil {
				return 0, wmAbortAll
			}
			if pred(tch) {
				matched = true
			}
			pch = 0
		default:
			if tch == pch {
				matched = true
			}
		}
		prevCh = pch
		p++
		pch = at(pat, p)
		if pch == ']' {
			break
		}
	}
	if matched == negated || tch == '/' {
		return 0, wmNoMatch
	}
	return p, wmMatch
}

// refCtype spells the C-locale classes out as character lists, independently
// of ctypeClass.
func refCtype(name string) func(byte) bool {
	const (
		upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		lower = "abcdefghijklmnopqrstuvwxyz"
		digit = "0123456789"
		punct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	)
	in := func(set string) func(byte) bool {
		return func(c byte) bool { return c != 0 && c < 128 && strings.IndexByte(set, c) >= 0 }
	}
	switch name {
	case "alnum":
		return in(upper + lower + digit)
	case "alpha":
		return in(upper + lower)
	case "blank":
		return in(" \t")
	case "cntrl":
		return func(c byte) bool { return c < 32 || c == 127 }
	case "digit":
		return in(digit)
	case "graph":
		return in(upper + lower + digit + punct)
	case "lower":
		return in(lower)
	case "print":
		return in(" " + upper + lower + digit + punct)
	case "punct":
		return in(punct)
	case "space":
		return in(" \t\n\v\f\r")
	case "upper":
		return in(upper)
	case "xdigit":
		return in(digit + "abcdefABCDEF")
	}
	return nil
}
