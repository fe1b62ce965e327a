package ralph

import (
	"regexp"
	"strings"
)

// placeholder matches {{ commands.NAME }}, {{ args.NAME }} and
// {{ ralph.NAME }}, with optional spaces inside the braces.
var placeholder = regexp.MustCompile(`\{\{\s*(commands|args|ralph)\.([A-Za-z0-9_-]+)\s*\}\}`)

// Values are what placeholders resolve to, by kind and name.
type Values struct {
	Commands map[string]string
	Args     map[string]string
	Ralph    map[string]string
}

// Resolve replaces every placeholder of the three kinds in one pass, so
// that text inserted by one (an argument containing "{{ commands.x }}")
// is never resolved again. Unknown names resolve to "".
func Resolve(template string, v Values) string {
	return placeholder.ReplaceAllStringFunc(template, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		switch sub[1] {
		case "commands":
			return v.Commands[sub[2]]
		case "args":
			return v.Args[sub[2]]
		}
		return v.Ralph[sub[2]]
	})
}

// ResolveArgs replaces only {{ args.NAME }}, for command lines.
func ResolveArgs(s string, args map[string]string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		if sub[1] != "args" {
			return m
		}
		return args[sub[2]]
	})
}

// ParseArgs maps the user's arguments to the declared names: --name VALUE,
// --name=VALUE, or positional values in declaration order. An argument
// the ralph does not declare is an error naming the declared ones.
func ParseArgs(declared, given []string) (map[string]string, error) {
	out := map[string]string{}
	known := map[string]bool{}
	for _, d := range declared {
		known[d] = true
	}
	pos := 0
	for i := 0; i < len(given); i++ {
		a := given[i]
		if name, ok := strings.CutPrefix(a, "--"); ok && name != "" {
			name, val, hasVal := strings.Cut(name, "=")
			if !known[name] {
				return nil, argError(name, declared)
			}
			if !hasVal {
				if i+1 >= len(given) {
					return nil, &ArgError{msg: "--" + name + " needs a value"}
				}
				i++
				val = given[i]
			}
			out[name] = val
			continue
		}
		if pos >= len(declared) {
			return nil, &ArgError{msg: "too many arguments: the ralph declares " + declaredList(declared)}
		}
		out[declared[pos]] = a
		pos++
	}
	return out, nil
}

// ArgError is a mistake in the user's arguments.
type ArgError struct{ msg string }

func (e *ArgError) Error() string { return e.msg }

func argError(name string, declared []string) error {
	return &ArgError{msg: "unknown argument --" + name + ": the ralph declares " + declaredList(declared)}
}

func declaredList(declared []string) string {
	if len(declared) == 0 {
		return "no args"
	}
	return "args " + strings.Join(declared, ", ")
}
