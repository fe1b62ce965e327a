package permission

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{
		"":                  ModeDefault,
		"default":           ModeDefault,
		"acceptEdits":       ModeAcceptEdits,
		"acceptedits":       ModeAcceptEdits,
		"plan":              ModePlan,
		" PLAN ":            ModePlan,
		"bypassPermissions": ModeBypassPermissions,
	} {
		got, err := ParseMode(in)
		if err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"yolo", "accept", "bypass permissions"} {
		if _, err := ParseMode(in); err == nil || !strings.Contains(err.Error(), "acceptEdits") {
			t.Errorf("ParseMode(%q): err = %v", in, err)
		}
	}
	if _, err := New("nonsense", Rules{}); err == nil {
		t.Error("New accepted an unknown mode")
	}
}

func TestNewRejectsBadRules(t *testing.T) {
	bad := []string{
		"",
		"   ",
		"shell(",
		"shell()",
		"shell(   )",
		"shell(go :* test)",
		"shell(:*)",
		"network(example.com)",
		"network(domain:)",
		"network(domain:example.com/path)",
		"fetch_url(ftp://example.com/*)",
		"fetch_url(docs.example.com)",
		"edit([)",
		"read(src/[a-)",
		"bad name(x)",
		"write_file(docs/[)",
		"shell go test",
		"(go test)",
		"read(secrets/{prod,staging/**)",
		"read(secrets/prod}/**)",
		"read(a[]b)",
		`read(a\)`,
		"read(" + strings.Repeat("{a,b}", 9) + ")",
		"read_file(docs/{a,b)",
	}
	for _, text := range bad {
		_, err := New(ModeDefault, Rules{Deny: []string{text}})
		if err == nil {
			t.Errorf("rule %q accepted", text)
			continue
		}
		if !strings.Contains(err.Error(), "permission deny") || !strings.Contains(err.Error(), fmt.Sprintf("rule %q", text)) {
			t.Errorf("rule %q: error %q does not name the list and the rule", text, err)
		}
	}
	_, err := New(ModeDefault, Rules{Allow: []string{"shell(", "edit(src/**)"}, Ask: []string{"edit([)"}})
	if err == nil || !strings.Contains(err.Error(), `permission allow rule "shell("`) || !strings.Contains(err.Error(), `permission ask rule "edit([)"`) {
		t.Errorf("every bad rule must be reported: %v", err)
	}
}

func TestNewAcceptsRules(t *testing.T) {
	good := []string{
		"git_commit",
		"shell",
		"shell(git status)",
		"shell(go test:*)",
		"shell(  go   test  :*)",
		"shell(git log --format=:*)",
		"edit(src/**)",
		"edit(./src/**/*.go)",
		"read(secrets/**)",
		"read(**/.env)",
		"fetch_url(https://docs.example.com/*)",
		"fetch_url(domain:example.com)",
		"network(domain:example.com)",
		"network(domain:*.example.com)",
		"mcp_github_create_issue",
		"write_file(docs/**)",
		"edit(app/[id]/page.tsx)",
		"read(secrets/{prod,staging}/**)",
		"edit([!.]*)",
		"read(" + strings.Repeat("{a,b}", 8) + ")",
	}
	if _, err := New(ModeDefault, Rules{Allow: good, Deny: good, Ask: good}); err != nil {
		t.Fatal(err)
	}
	r, _ := parseRule("shell(  go   test  :*)")
	if r.pattern != "go test" || !r.prefix || r.kind != patCommand {
		t.Errorf("parsed %+v", r)
	}
}

// TestPathRules checks the normalisation permission adds to pathglob's
// matching (pathglob's own tests cover the syntax).
func TestPathRules(t *testing.T) {
	tests := []struct {
		rule, path string
		want       bool
	}{
		{"edit(src/**)", "src/a.go", true},
		{"edit(src/**)", "src", true},
		{"edit(src/**)", "srcx/a.go", false},
		{"edit(./src/**)", "src/a.go", true},
		{"edit(/src/**)", "src/a.go", true},
		{"edit(src/)", "src", true},
		{"edit(*.go)", "x/a.go", false},
		{"read(**/.env)", ".env", true},
		{"read(**)", ".", true},
		{"read(secrets/**)", ".", false},
		{`edit(app/\[id\]/page.tsx)`, "app/[id]/page.tsx", true},
		{`edit(app/\[id\]/page.tsx)`, "app/i/page.tsx", false},
		{"read_file(secrets/{prod,staging}/**)", "secrets/staging/k", true},
		{"read_file(go test:*)", ".", false},
		{"read_file(https://example.com/*)", ".", false},
	}
	for _, tt := range tests {
		r, err := parseRule(tt.rule)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if got := r.glob.Match(tt.path); got != tt.want {
			t.Errorf("%s matches %q = %v, want %v", tt.rule, tt.path, got, tt.want)
		}
	}
}

func TestCommandPatterns(t *testing.T) {
	tests := []struct {
		rule, cmd string
		want      bool
	}{
		{"shell(go test:*)", "go test", true},
		{"shell(go test:*)", "go test ./...", true},
		{"shell(go test:*)", "go testing", false},
		{"shell(go test:*)", "go vet", false},
		{"shell(git status)", "git status", true},
		{"shell(git status)", "git status -s", false},
		{"shell(git log --format=:*)", "git log --format=%h", true},
		{"shell(npm run:*)", "npm run build", true},
	}
	for _, tt := range tests {
		r, err := parseRule(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.matchCommand(tt.cmd); got != tt.want {
			t.Errorf("%s vs %q = %v", tt.rule, tt.cmd, got)
		}
	}
}

func TestURLPatterns(t *testing.T) {
	tests := []struct {
		rule, url string
		want      bool
	}{
		{"network(domain:example.com)", "https://example.com/x", true},
		{"network(domain:example.com)", "http://docs.example.com:8080/", true},
		{"network(domain:example.com)", "https://badexample.com/", false},
		{"network(domain:example.com)", "https://example.com.evil.org/", false},
		{"fetch_url(https://docs.example.com/*)", "https://docs.example.com/a/b?c=d", true},
		{"fetch_url(https://docs.example.com/*)", "https://DOCS.example.com/a", true},
		{"fetch_url(https://docs.example.com/*)", "http://docs.example.com/a", false},
		{"fetch_url(https://docs.example.com/*)", "https://docs.example.com.evil.org/a", false},
		{"fetch_url(https://docs.example.com/api)", "https://docs.example.com/api", true},
		{"fetch_url(https://docs.example.com/api)", "https://docs.example.com/api/x", false},
	}
	for _, tt := range tests {
		r, err := parseRule(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.matchURL(r.kind, tt.url); got != tt.want {
			t.Errorf("%s vs %q = %v", tt.rule, tt.url, got)
		}
	}
}
