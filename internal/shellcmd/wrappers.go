package shellcmd

// Command wrappers and shells: which words in front of a command only
// change how it runs (env, nice, timeout, xargs, ...), and where a shell
// invocation takes its script from.

import (
	"path"
	"strings"
)

// maxWrappers bounds wrapper stripping (`nice nice nice ...`).
const maxWrappers = 16

// wrapperOpts lists, per wrapper command, the options that take a separate
// argument. Other words starting with "-" are taken as flags.
var wrapperOpts = map[string][]string{
	"env":     {"-u", "--unset", "-C", "--chdir"},
	"nice":    {"-n", "--adjustment"},
	"nohup":   nil,
	"setsid":  nil,
	"builtin": nil,
	"command": nil,
	"exec":    {"-a"},
	"time":    {"-f", "--format", "-o", "--output"},
	"timeout": {"-s", "--signal", "-k", "--kill-after"},
	"stdbuf":  {"-i", "--input", "-o", "--output", "-e", "--error"},
	"ionice":  {"-c", "--class", "-n", "--classdata"},
	"xargs": {"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args",
		"-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"},
	"busybox": nil,
}

// stripWrappers finds where the effective command starts in words. It
// returns that index, the wrapper names skipped, and the NAME=value
// assignments env made. A wrapper used on its own (`env`, `command -v x`) is the command.
// When the last wrapper is `env -S`, words[start] is a string env splits
// into the command; the wrapper is then named "env -S".
func stripWrappers(words []string) (start int, wrappers, assigns []string) {
	for range maxWrappers {
		if len(wrappers) > 0 && wrappers[len(wrappers)-1] == "env -S" {
			break
		}
		if start >= len(words) {
			break
		}
		name := path.Base(words[start])
		opts, ok := wrapperOpts[name]
		if !ok {
			break
		}
		i, envAssigns, isWrapper := skipWrapper(name, words, start+1, opts)
		if !isWrapper || i >= len(words) {
			break
		}
		if name == "env" && (words[i-1] == "-S" || words[i-1] == "--split-string") {
			name = "env -S"
		}
		start = i
		wrappers = append(wrappers, name)
		assigns = append(assigns, envAssigns...)
	}
	return start, wrappers, assigns
}

// skipWrapper skips one wrapper's options and operands from words[i].
func skipWrapper(name string, words []string, i int, opts []string) (next int, assigns []string, ok bool) {
	for i < len(words) {
		w := words[i]
		switch {
		case w == "--":
			return i + 1, assigns, true
		case name == "env" && (w == "-S" || w == "--split-string"):
			// env -S "cmd args" splits the string into words: the caller
			// parses it as a script.
			return i + 1, assigns, true
		case name == "command" && (w == "-v" || w == "-V"):
			return i, nil, false // a lookup, not a call
		case name == "ionice" && w == "-p":
			return i, nil, false
		case strings.HasPrefix(w, "-") && len(w) > 1:
			i++
			if takesArg(w, opts) {
				i++
			}
		case name == "env" && strings.Contains(w, "=") && !strings.HasPrefix(w, "="):
			assigns = append(assigns, w)
			i++
		default:
			if name == "timeout" {
				i++ // the duration
			}
			// busybox APPLET args runs the applet: `busybox rm -rf /` is rm.
			return i, assigns, true
		}
	}
	return i, assigns, name != "xargs"
}

// takesArg reports an option given without its argument attached.
func takesArg(w string, opts []string) bool {
	for _, o := range opts {
		if w == o {
			return true
		}
	}
	return false
}

// shellNames are the shells whose -c script and stdin script are followed.
var shellNames = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true,
	"mksh": true, "ash": true, "yash": true, "posh": true, "rbash": true,
}

func isShellName(name string) bool { return shellNames[path.Base(name)] }

// shellInv says where a shell invocation takes its script from.
type shellInv struct {
	script int  // index in args of the -c script, 0 if none
	stdin  bool // the script comes from standard input
}

// shellInvocation reads `sh [options] [-c script [$0 args...] | file | -s]`.
func shellInvocation(args []string) shellInv {
	cflag, sflag := false, false
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if strings.HasPrefix(a, "--") {
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
			continue
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		flags := a[1:]
		cflag = cflag || strings.ContainsRune(flags, 'c')
		sflag = sflag || strings.ContainsRune(flags, 's')
		if strings.ContainsAny(flags, "oO") {
			i++ // -o option-name
		}
	}
	switch {
	case cflag && i < len(args):
		return shellInv{script: i}
	case cflag:
		return shellInv{}
	}
	return shellInv{stdin: sflag || i >= len(args)}
}

// findExecs returns the [start, end) ranges in args of the commands run by
// find's -exec, -execdir, -ok and -okdir actions.
func findExecs(args []string) [][2]int {
	var out [][2]int
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		start := i + 1
		end := start
		for end < len(args) && args[end] != ";" && args[end] != "+" {
			end++
		}
		if end > start {
			out = append(out, [2]int{start, end})
		}
		i = end
	}
	return out
}
