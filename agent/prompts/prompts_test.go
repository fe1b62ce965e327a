package prompts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/workspace"
)

func TestParse(t *testing.T) {
	c, err := Parse("review", []byte("---\r\ndescription: Review code\r\nargument-hint: [file] [focus]\r\nmodel: big-model\r\nallowed-tools: Read, Grep, Bash(git diff:*, git log:*)\r\ndisable-model-invocation: true\r\n---\r\nReview $1.\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Description != "Review code" || c.ArgumentHint != "[file] [focus]" || c.Model != "big-model" || c.Body != "Review $1.\n" {
		t.Errorf("parsed %+v", c)
	}
	if want := []string{"Read", "Grep", "Bash(git diff:*, git log:*)"}; !slices.Equal(c.AllowedTools, want) {
		t.Errorf("allowed-tools %q, want %q", c.AllowedTools, want)
	}
	c, err = Parse("x", []byte("---\nallowed-tools: [read_file, grep]\nargument-hint: [a, b]\n---\n# Explain things\nbody"))
	if err != nil || !slices.Equal(c.AllowedTools, []string{"read_file", "grep"}) || c.ArgumentHint != "[a] [b]" || c.Description != "Explain things" {
		t.Errorf("list form: %+v, %v", c, err)
	}
	// No front matter: the first line describes; dashes without an end
	// are text.
	c, _ = Parse("y", []byte("---\nnot closed"))
	if c.Body != "---\nnot closed" {
		t.Errorf("body %q", c.Body)
	}
	if _, err := Parse("z", []byte("---\ndescription: [unclosed\n  - what\n---\n")); err == nil {
		t.Error("malformed front matter accepted")
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	ws, user := filepath.Join(dir, "ws"), filepath.Join(dir, "user")
	fixture.WriteTree(t, ws, map[string]string{
		".parley/commands/review.md":        "---\ndescription: workspace review\n---\nW",
		".parley/commands/frontend/lint.md": "Lint the frontend",
		".parley/commands/help.md":          "shadows a built-in",
		".parley/commands/bad name.md":      "x",
		".parley/commands/notes.txt":        "not a command",
		".parley/commands/broken.md":        "---\nmodel: [\n  - x\n---\n",
	})
	fixture.WriteTree(t, user, map[string]string{"review.md": "user review", "mine.md": "Mine"})
	os.Symlink("/etc/hostname", filepath.Join(ws, ".parley/commands/escape.md"))
	s := Load([]Dir{{Path: filepath.Join(ws, ".parley", "commands"), Source: Workspace, Root: ws}, {Path: user, Source: User}, {Path: filepath.Join(dir, "missing"), Source: User}}, "help")
	var names []string
	for _, c := range s.List() {
		names = append(names, c.Name+"="+string(c.Source))
	}
	if want := []string{"frontend:lint=workspace", "mine=user", "review=workspace"}; !slices.Equal(names, want) {
		t.Errorf("commands %q, want %q", names, want)
	}
	if c := s.Lookup("review"); c == nil || c.Description != "workspace review" {
		t.Errorf("review: %+v", c)
	}
	problems := strings.Join(s.Problems, "\n")
	for _, want := range []string{"/help is a built-in command", `"bad name"`, "broken.md skipped: front matter", "escape.md skipped: it links outside"} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
}

func TestInvocation(t *testing.T) {
	for _, tt := range []struct{ in, name, args string }{
		{"/review a.go  b", "review", "a.go  b"},
		{"  /frontend:lint\n", "frontend:lint", ""},
		{"/usr/bin is odd", "", ""},
		{"hello", "", ""},
		{"/", "", ""},
	} {
		name, args, ok := Invocation(tt.in)
		if name != tt.name || args != tt.args || ok != (tt.name != "") {
			t.Errorf("Invocation(%q) = %q, %q, %v", tt.in, name, args, ok)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`a  b`, []string{"a", "b"}},
		{`"two words" 'it''s' x\ y ""`, []string{"two words", "its", "x y", ""}},
		{`"a \"q\" \n"`, []string{`a "q" \n`}},
		{`'$1 \'`, []string{`$1 \`}},
	} {
		got, err := SplitArgs(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitArgs(%s) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := SplitArgs(`"open`); err == nil {
		t.Error("an unclosed quote was accepted")
	}
}

func TestParts(t *testing.T) {
	body := "Branch: !`git branch --show-current` now\n!git status\n![img](x.png)\n```sh\n!not run\nsee !`nope`\n```\ncost $5 !`` empty\n"
	var got []string
	for _, p := range parts(body) {
		kind := "text"
		switch {
		case p.shell:
			kind = "shell"
		case p.fenced:
			kind = "fenced"
		}
		got = append(got, kind+":"+p.text)
	}
	want := []string{"text:Branch: ", "shell:git branch --show-current", "text: now\n", "shell:git status", "text:\n![img](x.png)\n",
		"fenced:```sh\n!not run\nsee !`nope`\n```\n", "text:cost $5 !`` empty\n"}
	if !slices.Equal(got, want) {
		t.Errorf("parts:\n%q\nwant\n%q", got, want)
	}
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, map[string]string{"a.go": "package a\n", "docs/b.md": "B\n"})
	os.Symlink("/etc/hostname", filepath.Join(ws, "out.txt"))
	roots, err := workspace.NewRoots(ws)
	if err != nil {
		t.Fatal(err)
	}
	ap, _ := hooks.OpenApprovals(filepath.Join(dir, "approved.json"))
	c := &Command{Name: "go", Source: Workspace, Root: ws, Body: "Look at $1 then @docs/b.md and @out.txt, mail me@x.org.\nAll: $ARGUMENTS $9.\n!printf '%s|' \"$@\" \"$ARGUMENTS\"\n```\n@a.go stays\n```\n"}
	o := Options{Args: `@a.go "two words" '$ARGUMENTS'`, Read: mentions.DiskReader(roots), Approvals: ap}
	if _, err := c.Expand(context.Background(), o); !errors.Is(err, ErrNotApproved) {
		t.Fatalf("unapproved shell: %v", err)
	}
	if err := ap.Approve(c.Key()); err != nil {
		t.Fatal(err)
	}
	x, err := c.Expand(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := "Look at @a.go then @docs/b.md and @out.txt, mail me@x.org.\nAll: @a.go \"two words\" '$ARGUMENTS' .\n" +
		"@a.go|two words|$ARGUMENTS|@a.go \"two words\" '$ARGUMENTS'|\n```\n@a.go stays\n```" +
		"\n\n<file path=\"a.go\">\npackage a\n</file>\n\n<file path=\"docs/b.md\">\nB\n</file>"
	if x.Prompt != want {
		t.Errorf("prompt:\n%s\nwant:\n%s", x.Prompt, want)
	}
	if !slices.Equal(x.Files, []string{"a.go", "docs/b.md"}) || len(x.Ran) != 1 {
		t.Errorf("files %q, ran %q", x.Files, x.Ran)
	}
	if len(x.Notes) != 1 || !strings.Contains(x.Notes[0], "@out.txt, not attached") && !strings.Contains(x.Notes[0], "@out.txt not attached") {
		t.Errorf("notes %q", x.Notes)
	}
	// A changed shell line needs a new approval; a user command none.
	c.Body += "!echo more\n"
	if _, err := c.Expand(context.Background(), o); !errors.Is(err, ErrNotApproved) {
		t.Errorf("changed shell line: %v", err)
	}
	c.Source = User
	x, err = c.Expand(context.Background(), Options{Args: "x", Dir: ws, Approvals: ap})
	if err != nil || !strings.HasSuffix(x.Prompt, "more") {
		t.Errorf("user command: %v\n%s", err, x.Prompt)
	}
}

func TestExpandAppendsUnusedArguments(t *testing.T) {
	c := &Command{Name: "n", Source: User, Body: "Do the thing."}
	x, err := c.Expand(context.Background(), Options{Args: "quickly"})
	if err != nil || x.Prompt != "Do the thing.\n\nARGUMENTS: quickly" {
		t.Errorf("%q, %v", x.Prompt, err)
	}
}

func TestShellFailureIsNoted(t *testing.T) {
	c := &Command{Name: "f", Source: User, Body: "!echo out; exit 3\n"}
	x, err := c.Expand(context.Background(), Options{Dir: t.TempDir()})
	if err != nil || !strings.Contains(x.Prompt, "out\n[exit status 3]") || len(x.Notes) != 1 {
		t.Errorf("%q %q %v", x.Prompt, x.Notes, err)
	}
}

func TestToolNames(t *testing.T) {
	names, unknown := ToolNames([]string{"Read", "Bash(git diff:*)", "grep", "mcp_gh_*", "Nope"},
		[]string{"read_file", "grep", "shell", "write_file", "mcp_gh_issue", "mcp_gh_pr"})
	if want := []string{"read_file", "grep", "shell", "mcp_gh_issue", "mcp_gh_pr"}; !slices.Equal(names, want) || !slices.Equal(unknown, []string{"Nope"}) {
		t.Errorf("names %q unknown %q", names, unknown)
	}
}

// A shell line does not see parley's credentials, as the shell tool does not.
func TestShellHidesKeys(t *testing.T) {
	t.Setenv("PARLEY_API_KEY", "sk-secret")
	c := &Command{Name: "k", Source: User, Body: "!echo \"key=$PARLEY_API_KEY args=$ARGUMENTS\"\n"}
	x, err := c.Expand(context.Background(), Options{Args: "a b", Dir: t.TempDir()})
	if err != nil || x.Prompt != "key= args=a b" {
		t.Errorf("%q, %v", x.Prompt, err)
	}
}

// One approval holds whether the root is named through a symlink or not.
func TestKeyResolvesTheRoot(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	fixture.WriteTree(t, real, map[string]string{"x": ""})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	a := &Command{Name: "n", Root: real, Body: "!ls\n"}
	b := &Command{Name: "n", Root: link, Body: "!ls\n"}
	if a.Key() != b.Key() {
		t.Error("the keys differ")
	}
}
