package shellcmd

import (
	"regexp"
	"strings"
	"testing"
)

// refused reports whether the shell tool refuses cmd: it turns a parse
// error and a danger reason alike into a refusal.
func refused(cmd string) (bool, string) {
	s, err := Parse(cmd)
	if err != nil {
		return true, "parse error: " + err.Error()
	}
	if why := s.Danger(); why != "" {
		return true, why
	}
	return false, ""
}

// FuzzShellDanger parses model-supplied command lines and judges them.
// Beyond not panicking, a refusal must survive wrapping: running a refused
// command through sudo, in a subshell or as the script of sh -c is refused
// too (whether as dangerous or as unparseable). A script that starts with
// "-" or "+" is not wrapped in sh -c: the shell reads such a word as
// options, never as the script, and refuses to start.
// positionalRE matches $0..$9, $@ and $*, which mean something else
// inside sh -c (the arguments after the script), so wrapping changes the
// command.
var positionalRE = regexp.MustCompile(`\$[0-9@*]|\$\{[0-9@*]`)

func FuzzShellDanger(f *testing.F) {
	for _, cmd := range dangerousCommands {
		f.Add(cmd)
	}
	for _, cmd := range benignCommands {
		f.Add(cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		s, err := Parse(cmd)
		if strings.IndexByte(cmd, 0) >= 0 {
			// The parser drops NUL bytes, so "\x00+x" wrapped in sh -c
			// becomes a script starting with "+" (see below); the shell
			// tool refuses a NUL byte before it parses anything.
			return
		}
		if err != nil {
			return
		}
		why := s.Danger()
		if why == "" {
			return
		}
		wrapped := []string{"sudo " + cmd, "(" + cmd + ")"}
		if !strings.ContainsRune(cmd, '\'') && !strings.HasPrefix(cmd, "-") && !strings.HasPrefix(cmd, "+") && !positionalRE.MatchString(cmd) {
			wrapped = append(wrapped, "sh -c '"+cmd+"'")
		}
		for _, w := range wrapped {
			if ok, _ := refused(w); !ok {
				t.Errorf("%q is refused (%s) but %q is not", cmd, why, w)
			}
		}
	})
}
