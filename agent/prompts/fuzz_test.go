package prompts

import (
	"context"
	"testing"
)

// Nothing in a command file or in the arguments panics, and what Parse
// accepts expands (without shell lines, which a fuzzer must not run).
func FuzzParseExpand(f *testing.F) {
	f.Add([]byte("---\ndescription: d\nallowed-tools: Read, Bash(git:*)\n---\nDo $1 with $ARGUMENTS @a.go\n"), `a "b c"`)
	f.Add([]byte("---\nargument-hint: [x, y]\n---\n```\n!x\n```\n$9$"), `'unclosed`)
	f.Add([]byte("---\n---\n"), `\`)
	f.Fuzz(func(t *testing.T, data []byte, args string) {
		c, err := Parse("f", data)
		if err != nil {
			return
		}
		_ = c.ShellLines()
		_, _ = SplitArgs(args)
		_, _, _ = Invocation(args)
		c.Body = stripShell(c.Body)
		read := func(_ context.Context, p string) (string, string, error) { return p, p, nil }
		if _, err := c.Expand(context.Background(), Options{Args: args, Read: read}); err != nil && len(c.ShellLines()) > 0 {
			t.Fatalf("shell lines left after stripping: %q", c.ShellLines())
		}
	})
}

// stripShell keeps only the text parts of body.
func stripShell(body string) string {
	var out string
	for _, p := range parts(body) {
		if !p.shell {
			out += p.text
		}
	}
	if len(parts(out)) > 0 {
		for _, p := range parts(out) {
			if p.shell {
				return ""
			}
		}
	}
	return out
}
