package prompts

import (
	"errors"
	"strings"
)

// SplitArgs splits argument text into words as a shell would, without
// expanding anything: whitespace separates words, single quotes keep
// everything literally, double quotes keep everything but a backslash
// before " or \, and a backslash outside quotes keeps the next character.
// An unclosed quote is an error.
func SplitArgs(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word (possibly an empty quoted one)
		quote rune
		esc   bool
	)
	for _, r := range s {
		switch {
		case esc:
			if quote == '"' && r != '"' && r != '\\' {
				cur.WriteRune('\\')
			}
			cur.WriteRune(r)
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\' && quote != '\'':
			esc, in = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, errors.New("unclosed " + string(quote) + " quote in the arguments")
	}
	if esc {
		cur.WriteRune('\\')
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// substitute replaces $ARGUMENTS and $1...$9 in one pass (a value put in
// is never read again) and reports whether any was there.
func substitute(text, args string, words []string) (string, bool) {
	var b strings.Builder
	used := false
	for {
		i := strings.IndexByte(text, '$')
		if i < 0 {
			b.WriteString(text)
			return b.String(), used
		}
		b.WriteString(text[:i])
		rest := text[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			b.WriteString(args)
			text, used = rest[len("ARGUMENTS"):], true
		case rest != "" && rest[0] >= '1' && rest[0] <= '9':
			if n := int(rest[0] - '1'); n < len(words) {
				b.WriteString(words[n])
			}
			text, used = rest[1:], true
		default:
			b.WriteByte('$')
			text = rest
		}
	}
}
