package permission

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/pathglob"
)

// Rules are the permission rules from the configuration. Each entry is a
// tool or kind name, optionally with a pattern in parentheses:
//
//	git_commit                        every call of that tool
//	shell                             every shell command
//	shell(git status)                 exactly that command
//	shell(go test:*)                  "go test" and anything after it
//	edit(src/**)                      edits whose paths all match the glob
//	read(secrets/**)                  reads of those paths
//	fetch_url(https://docs.example.com/*)
//	network(domain:example.com)       the host and its subdomains
//
// The names shell, read, edit, network and git name a kind of access and
// cover every tool of that kind; any other name is a tool name, and a name
// ending in "*" covers every tool whose name starts with the rest
// (mcp_github_* names the tools of the MCP server github). Path
// patterns are doublestar globs over root-relative, slash-separated paths
// (see package pathglob: "*" within a segment, "**" across segments, "{a,b}"
// alternatives, "[!a]" negated classes); a pattern pathglob refuses is an
// error when the rules load.
type Rules struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	Ask   []string `json:"ask,omitempty"`
}

// patternKind says what a rule's pattern matches.
type patternKind uint8

const (
	patNone    patternKind = iota // bare name: every call it names
	patCommand                    // shell command, exact or "prefix:*"
	patPath                       // doublestar glob over paths
	patURL                        // URL glob, "*" matches anything
	patDomain                     // domain:host
	patAny                        // a tool name: chosen by the call's kind
)

// rule is one parsed rule.
type rule struct {
	text    string // as configured, for reasons and errors
	name    string
	kind    patternKind
	pattern string // normalised; for patCommand without the ":*"
	prefix  bool   // patCommand ending in ":*"
	// glob is the compiled path pattern of patPath, and of patAny when
	// the pattern is not a command prefix or a URL or domain.
	glob pathglob.Pattern
}

// ruleName is a tool or kind name; a final "*" makes it a prefix of tool
// names ("mcp_github_*": every tool of the MCP server github).
var ruleName = regexp.MustCompile(`^[A-Za-z0-9_.-]+\*?$`)

// parseRule validates and parses one rule.
func parseRule(text string) (rule, error) {
	s := strings.TrimSpace(text)
	name, pat, hasPat := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	r := rule{text: s, name: name}
	if !ruleName.MatchString(name) {
		return r, fmt.Errorf("rule %q: want a tool name or one of shell, read, edit, network, git, optionally followed by (pattern)", text)
	}
	if !hasPat {
		return r, nil
	}
	pat, ok := strings.CutSuffix(pat, ")")
	if !ok {
		return r, fmt.Errorf("rule %q: missing closing parenthesis", text)
	}
	pat = strings.TrimSpace(pat)
	if pat == "" {
		return r, fmt.Errorf("rule %q: empty pattern; write %q to cover every call", text, name)
	}
	var err error
	switch name {
	case "shell":
		err = r.setCommand(pat)
	case "network":
		err = r.setDomain(pat)
	case "fetch_url":
		if strings.HasPrefix(pat, "domain:") {
			err = r.setDomain(pat)
		} else {
			err = r.setURL(pat)
		}
	case "read", "edit", "git":
		err = r.setPath(pat)
	default:
		// Another tool: the pattern is read by the kind of its calls, so
		// only a path glob can be checked here.
		r.kind, r.pattern = patAny, pat
		switch {
		case strings.HasSuffix(pat, ":*"):
			r.pattern, r.prefix = normaliseCommand(strings.TrimSuffix(pat, ":*")), true
		case strings.Contains(pat, "://") || strings.HasPrefix(pat, "domain:"):
		default:
			r.glob, err = compileGlob(pat)
		}
	}
	if err != nil {
		return r, fmt.Errorf("rule %q: %w", text, err)
	}
	return r, nil
}

func (r *rule) setCommand(pat string) error {
	r.kind = patCommand
	if p, ok := strings.CutSuffix(pat, ":*"); ok {
		r.prefix = true
		pat = p
	}
	if strings.Contains(pat, ":*") {
		return errors.New(`":*" may only end the pattern ("go test:*")`)
	}
	r.pattern = normaliseCommand(pat)
	if r.pattern == "" {
		return errors.New("empty command")
	}
	return nil
}

func (r *rule) setDomain(pat string) error {
	d, ok := strings.CutPrefix(pat, "domain:")
	if !ok {
		return errors.New(`want "domain:example.com"`)
	}
	d = strings.ToLower(strings.TrimSpace(d))
	d = strings.TrimPrefix(d, "*.")
	if d == "" || strings.ContainsAny(d, "/:@ *?") {
		return fmt.Errorf("bad domain %q", d)
	}
	r.kind, r.pattern = patDomain, d
	return nil
}

func (r *rule) setURL(pat string) error {
	scheme, rest, ok := strings.Cut(pat, "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") || rest == "" {
		return errors.New(`want an http(s) URL pattern such as "https://docs.example.com/*" or "domain:example.com"`)
	}
	host, path, _ := strings.Cut(rest, "/")
	r.kind = patURL
	r.pattern = scheme + "://" + strings.ToLower(host)
	if strings.Contains(rest, "/") {
		r.pattern += "/" + path
	}
	return nil
}

func (r *rule) setPath(pat string) error {
	g, err := compileGlob(pat)
	if err != nil {
		return err
	}
	r.kind, r.pattern, r.glob = patPath, g.String(), g
	return nil
}

// normaliseCommand collapses runs of whitespace.
func normaliseCommand(s string) string { return strings.Join(strings.Fields(s), " ") }

// applies reports whether the rule names this call's tool or kind.
func (r *rule) applies(tool string, a access.Access) bool {
	if prefix, ok := strings.CutSuffix(r.name, "*"); ok {
		return strings.HasPrefix(tool, prefix)
	}
	return r.name == tool || (a.Kind != "" && r.name == string(a.Kind))
}

// effectiveKind resolves patAny by the kind of call.
func (r *rule) effectiveKind(a access.Access) patternKind {
	if r.kind != patAny {
		return r.kind
	}
	switch {
	case a.Kind == access.Shell:
		return patCommand
	case a.Kind == access.Network && strings.HasPrefix(r.pattern, "domain:"):
		return patDomain
	case a.Kind == access.Network:
		return patURL
	}
	return patPath
}

// matchCommand matches a normalised command line.
func (r *rule) matchCommand(cmd string) bool {
	if !r.prefix {
		return cmd == r.pattern
	}
	if !strings.HasPrefix(cmd, r.pattern) {
		return false
	}
	if len(cmd) == len(r.pattern) {
		return true
	}
	// "go test:*" covers "go test ./..." but not "go testing"; a prefix
	// that ends in punctuation ("--format=:*") continues anywhere.
	last := r.pattern[len(r.pattern)-1]
	return cmd[len(r.pattern)] == ' ' || !isWordByte(last)
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// matchURL matches a fetched address against a URL or domain pattern.
func (r *rule) matchURL(kind patternKind, raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	switch kind {
	case patDomain:
		d := strings.TrimPrefix(r.pattern, "domain:")
		return host == d || strings.HasSuffix(host, "."+d)
	case patURL:
		norm := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + u.EscapedPath()
		if u.RawQuery != "" {
			norm += "?" + u.RawQuery
		}
		return wildcardMatch(r.pattern, norm)
	}
	return false
}

// wildcardMatch matches s against p where "*" matches any run of
// characters (including "/").
func wildcardMatch(p, s string) bool {
	parts := strings.Split(p, "*")
	if len(parts) == 1 {
		return p == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}
