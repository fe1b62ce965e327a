package permission

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/pathglob"
	"github.com/parleyhq/parley/internal/shellcmd"
)

// call is one tool call prepared for rule matching. A shell call is split
// into its simple commands; rules are matched per command, path and URL
// ("items").
type call struct {
	tool string
	a    access.Access
	cmds []shellcmd.SimpleCommand // nil when the command does not parse
}

func newCall(tool string, a access.Access) *call {
	c := &call{tool: tool, a: a}
	if a.Kind == access.Shell && a.Command != "" {
		if s, err := shellcmd.Parse(a.Command); err == nil {
			c.cmds = s.Commands()
		}
	}
	return c
}

// itemKind is the kind of item a call is judged by.
func (c *call) itemKind() patternKind {
	switch {
	case c.a.Kind == access.Shell:
		return patCommand
	case c.a.Kind == access.Network:
		return patURL
	}
	return patPath
}

// items is the number of items of the call.
func (c *call) items() int {
	switch c.itemKind() {
	case patCommand:
		return len(c.cmds)
	case patURL:
		if c.a.URL == "" {
			return 0
		}
		return 1
	}
	return len(c.a.Paths)
}

// matchItem reports whether r matches item i. forAllow applies the
// stricter reading allow rules need for shell commands.
func (c *call) matchItem(r *rule, i int, forAllow bool) bool {
	k := r.effectiveKind(c.a)
	switch c.itemKind() {
	case patCommand:
		if k != patCommand {
			return false
		}
		for _, s := range commandForms(c.cmds[i], forAllow) {
			if r.matchCommand(s) {
				return true
			}
		}
		return false
	case patURL:
		return (k == patURL || k == patDomain) && r.matchURL(k, c.a.URL)
	}
	if k != patPath {
		return false
	}
	return r.glob.Match(c.a.Paths[i])
}

// anyMatch returns the first rule that names the call and matches any of
// its items (deny and ask rules), or nil.
func (c *call) anyMatch(rules []rule) *rule {
	for i := range rules {
		r := &rules[i]
		if !r.applies(c.tool, c.a) {
			continue
		}
		if r.kind == patNone {
			return r
		}
		for item := range c.items() {
			if c.matchItem(r, item, false) {
				return r
			}
		}
	}
	return nil
}

// allMatch returns a rule that allows the call when every item is matched
// by some rule (allow rules), or nil. A call without items is only allowed
// by a bare rule.
func (c *call) allMatch(rules []rule) *rule {
	var first *rule
	for i := range rules {
		if rules[i].applies(c.tool, c.a) && rules[i].kind == patNone {
			return &rules[i]
		}
	}
	n := c.items()
	if n == 0 {
		return nil
	}
	for item := range n {
		var found *rule
		for i := range rules {
			r := &rules[i]
			if r.applies(c.tool, c.a) && c.matchItem(r, item, true) {
				found = r
				break
			}
		}
		if found == nil {
			return nil
		}
		if first == nil {
			first = found
		}
	}
	return first
}

// harmlessWrappers change how a command runs, not what it does, so
// "timeout 60 go test" is judged as "go test". env and xargs are not among
// them: they change the environment or the arguments.
var harmlessWrappers = map[string]bool{
	"nice": true, "nohup": true, "timeout": true, "time": true, "command": true,
	"exec": true, "stdbuf": true, "ionice": true, "setsid": true, "builtin": true,
}

// commandForms are the normalised strings a shell rule is matched against.
// For deny and ask rules: the command as written and its effective
// command. For allow rules only commands whose name is literal and whose
// output redirections stay in the workspace qualify, and the effective
// command only when nothing but harmless wrappers and no assignments
// precede it.
func commandForms(cmd shellcmd.SimpleCommand, forAllow bool) []string {
	full := cmd.String()
	eff := cmd.Effective()
	if !forAllow {
		return []string{full, eff}
	}
	if len(cmd.Args) == 0 || strings.ContainsAny(cmd.Args[0], "$`") || !redirectsContained(cmd) {
		return nil
	}
	if len(cmd.Assigns) > 0 {
		return []string{full}
	}
	for _, w := range cmd.Wrappers {
		if !harmlessWrappers[w] {
			return []string{full}
		}
	}
	return []string{full, eff}
}

// redirectsContained reports whether every output redirection writes to a
// relative path inside the working directory or to a harmless device.
func redirectsContained(cmd shellcmd.SimpleCommand) bool {
	for _, r := range cmd.Redirects {
		if !r.Writes() {
			continue
		}
		switch r.Target {
		case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
			continue
		}
		t := r.Target
		if r.Dynamic || t == "" || path.IsAbs(t) || strings.HasPrefix(t, "~") || !isLocalPath(t) {
			return false
		}
	}
	return true
}

func isLocalPath(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

// subcommandTools are commands whose second word selects what they do, so
// a session allowance covers "go test" rather than all of "go".
var subcommandTools = map[string]bool{
	"go": true, "git": true, "npm": true, "npx": true, "pnpm": true, "yarn": true, "bun": true,
	"deno": true, "cargo": true, "rustup": true, "docker": true, "podman": true, "kubectl": true,
	"helm": true, "terraform": true, "make": true, "just": true, "mvn": true, "gradle": true,
	"gradlew": true, "dotnet": true, "pip": true, "pip3": true, "uv": true, "poetry": true,
	"gh": true, "mix": true, "bundle": true, "rake": true, "composer": true, "swift": true,
	"zig": true, "nix": true, "apt": true, "brew": true, "systemctl": true,
}

var subcommandWord = regexp.MustCompile(`^[a-z][a-z0-9:_-]*$`)

// sessionPrefix is the "first word + subcommand" prefix remembered for a
// command, or "" when the command name is not literal.
func sessionPrefix(cmd shellcmd.SimpleCommand) string {
	forms := commandForms(cmd, true)
	switch len(forms) {
	case 0:
		return ""
	case 1:
		// Assignments or wrappers such as env or xargs come first: only
		// this very command, possibly with more arguments.
		return forms[0]
	}
	words := cmd.Args
	first := words[0]
	if subcommandTools[path.Base(first)] && len(words) > 1 && subcommandWord.MatchString(words[1]) {
		return first + " " + words[1]
	}
	return first
}

// sessionRules are the rules remembered when the user allows a call for
// the session: a prefix rule per shell command, the file for edits and
// reads, the domain for network access, else the tool itself. A shell
// command that cannot be generalised safely yields none (allow once).
func sessionRules(c *call) []string {
	switch c.a.Kind {
	case access.Shell:
		if len(c.cmds) == 0 {
			return nil
		}
		var out []string
		for _, cmd := range c.cmds {
			p := sessionPrefix(cmd)
			if p == "" {
				return nil
			}
			if r := "shell(" + p + ":*)"; !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		return out
	case access.Edit, access.Read:
		if len(c.a.Paths) == 0 {
			return []string{c.tool}
		}
		var out []string
		for _, p := range c.a.Paths {
			out = append(out, string(c.a.Kind)+"("+pathglob.Escape(p)+")")
		}
		return out
	case access.Network:
		if u, err := url.Parse(c.a.URL); err == nil && u.Hostname() != "" {
			return []string{"network(domain:" + strings.ToLower(u.Hostname()) + ")"}
		}
		return nil
	}
	return []string{c.tool}
}
