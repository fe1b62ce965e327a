package permission

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parleyhq/parley/agent/access"
)

// testCall is one tool call for the table tests.
type testCall struct {
	tool     string
	readOnly bool
	a        access.Access
}

func (c testCall) String() string {
	return fmt.Sprintf("%s %s %q%q%q", c.tool, c.a.Kind, c.a.Command, c.a.Paths, c.a.URL)
}

func shellCall(cmd string) testCall {
	return testCall{"shell", false, access.Access{Kind: access.Shell, Command: cmd}}
}

func editCall(paths ...string) testCall {
	return testCall{"edit_file", false, access.Access{Kind: access.Edit, Paths: paths}}
}

func mcpCall(tool string) testCall {
	return testCall{tool, false, access.Access{Summary: tool}}
}

func readCall(paths ...string) testCall {
	return testCall{"read_file", true, access.Access{Kind: access.Read, Paths: paths}}
}

func fetchCall(u string) testCall {
	return testCall{"fetch_url", true, access.Access{Kind: access.Network, URL: u}}
}

func gitCall(paths ...string) testCall {
	return testCall{"git_commit", false, access.Access{Kind: access.Git, Paths: paths}}
}

func mustPolicy(t *testing.T, mode Mode, rules Rules) *Policy {
	t.Helper()
	p, err := New(mode, rules)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDecideModeDefaults(t *testing.T) {
	kinds := map[string]testCall{
		"read":     readCall("a.go"),
		"edit":     editCall("a.go"),
		"shell":    shellCall("go test ./..."),
		"network":  fetchCall("https://example.com/"),
		"git":      gitCall(),
		"other":    {"mcp_x_do", false, access.Access{}},
		"readonly": {"todo_read", true, access.Access{}},
	}
	A, D, Q := DecisionAllow, DecisionDeny, DecisionAsk
	want := map[Mode]map[string]Decision{
		ModeDefault:           {"read": A, "edit": Q, "shell": Q, "network": Q, "git": Q, "other": Q, "readonly": A},
		ModeAcceptEdits:       {"read": A, "edit": A, "shell": Q, "network": Q, "git": Q, "other": Q, "readonly": A},
		ModePlan:              {"read": A, "edit": D, "shell": D, "network": D, "git": D, "other": D, "readonly": A},
		ModeBypassPermissions: {"read": A, "edit": A, "shell": A, "network": A, "git": A, "other": A, "readonly": A},
	}
	for mode, byKind := range want {
		p := mustPolicy(t, mode, Rules{})
		for kind, c := range kinds {
			got, reason := p.Decide(c.tool, c.readOnly, c.a)
			if got != byKind[kind] {
				t.Errorf("%s/%s: %s (%s), want %s", mode, kind, got, reason, byKind[kind])
			}
			if reason == "" {
				t.Errorf("%s/%s: empty reason", mode, kind)
			}
			if mode == ModePlan && got == DecisionDeny && !strings.Contains(reason, "plan mode is read-only") {
				t.Errorf("plan reason %q", reason)
			}
		}
	}
}

func TestDecideRules(t *testing.T) {
	tests := []struct {
		name  string
		mode  Mode
		rules Rules
		call  testCall
		want  Decision
	}{
		{"prefix allows", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go test ./..."), DecisionAllow},
		{"prefix is word bounded", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go testing"), DecisionAsk},
		{"exact rule", ModeDefault, Rules{Allow: []string{"shell(git status)"}}, shellCall("git   status"), DecisionAllow},
		{"exact rule, more args", ModeDefault, Rules{Allow: []string{"shell(git status)"}}, shellCall("git status -s"), DecisionAsk},
		{"quoting normalised", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall(`"go" 'test' ./...`), DecisionAllow},
		{"compound, one not allowed", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go test ./... && rm x"), DecisionAsk},
		{"compound, all allowed", ModeDefault, Rules{Allow: []string{"shell(go test:*)", "shell(go vet:*)"}}, shellCall("go vet ./... && go test ./..."), DecisionAllow},
		{"pipeline, all allowed", ModeDefault, Rules{Allow: []string{"shell(go test:*)", "shell(grep:*)"}}, shellCall("go test ./... 2>&1 | grep FAIL"), DecisionAllow},
		{"sh -c nested allowed", ModeDefault, Rules{Allow: []string{"shell(go test:*)", "shell(go vet:*)"}}, shellCall(`sh -c 'go vet ./... && go test ./...'`), DecisionAllow},
		{"sh -c nested not allowed", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall(`sh -c 'go test ./... ; curl x'`), DecisionAsk},
		{"sh -c redirected out", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall(`sh -c 'go test' > /tmp/x`), DecisionAsk},
		{"sh -c under env", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall(`env LD_PRELOAD=x.so sh -c 'go test'`), DecisionAsk},
		{"sh -c itself is not a prefix", ModeDefault, Rules{Allow: []string{"shell(sh:*)"}}, shellCall(`sh -c 'rm x'`), DecisionAsk},
		{"substitution must be allowed too", ModeDefault, Rules{Allow: []string{"shell(echo:*)"}}, shellCall(`echo $(rm x)`), DecisionAsk},
		{"harmless wrapper", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("timeout 60 nice go test ./..."), DecisionAllow},
		{"env wrapper not stripped for allow", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("env GOFLAGS=-x go test ./..."), DecisionAsk},
		{"assignment not stripped for allow", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("GOFLAGS=-x go test ./..."), DecisionAsk},
		{"assignment in the rule", ModeDefault, Rules{Allow: []string{"shell(CGO_ENABLED=0 go build:*)"}}, shellCall("CGO_ENABLED=0 go build ./..."), DecisionAllow},
		{"dynamic command name", ModeDefault, Rules{Allow: []string{"shell($GO:*)"}}, shellCall("$GO test"), DecisionAsk},
		{"redirect inside workspace", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go test ./... > out.txt 2>&1"), DecisionAllow},
		{"redirect to /dev/null", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go test ./... >/dev/null"), DecisionAllow},
		{"redirect outside workspace", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go test ./... > /tmp/out"), DecisionAsk},
		{"redirect up and out", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go test ./... > ../out"), DecisionAsk},
		{"redirect of a group", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("{ go test ./...; } > ~/.bashrc"), DecisionAsk},
		{"unparseable command", ModeDefault, Rules{Allow: []string{"shell(go test:*)"}}, shellCall("go test 'open"), DecisionAsk},
		{"bare shell allows all", ModeDefault, Rules{Allow: []string{"shell"}}, shellCall("anything at all"), DecisionAllow},
		{"tool prefix allows", ModeDefault, Rules{Allow: []string{"mcp_github_*"}}, mcpCall("mcp_github_create_issue"), DecisionAllow},
		{"tool prefix is a prefix", ModeDefault, Rules{Allow: []string{"mcp_github_*"}}, mcpCall("mcp_gitlab_x"), DecisionAsk},
		{"tool prefix denies", ModeBypassPermissions, Rules{Deny: []string{"mcp_*"}}, mcpCall("mcp_fs_write"), DecisionDeny},
		{"tool prefix asks", ModeBypassPermissions, Rules{Ask: []string{"mcp_fs_*"}}, mcpCall("mcp_fs_write"), DecisionAsk},
		{"mcp tool in plan mode", ModePlan, Rules{}, mcpCall("mcp_fs_read"), DecisionDeny},

		{"deny any command", ModeBypassPermissions, Rules{Deny: []string{"shell(rm:*)"}}, shellCall("go test && rm x"), DecisionDeny},
		{"deny nested", ModeBypassPermissions, Rules{Deny: []string{"shell(rm:*)"}}, shellCall(`bash -c "sh -c 'rm x'"`), DecisionDeny},
		{"deny through assignment", ModeBypassPermissions, Rules{Deny: []string{"shell(rm:*)"}}, shellCall("FOO=1 rm x"), DecisionDeny},
		{"deny through env", ModeBypassPermissions, Rules{Deny: []string{"shell(rm:*)"}}, shellCall("env FOO=1 rm x"), DecisionDeny},
		{"deny through xargs", ModeBypassPermissions, Rules{Deny: []string{"shell(rm:*)"}}, shellCall("ls | xargs rm"), DecisionDeny},
		{"deny in substitution", ModeBypassPermissions, Rules{Deny: []string{"shell(rm:*)"}}, shellCall("echo `rm x`"), DecisionDeny},
		{"deny in function", ModeBypassPermissions, Rules{Deny: []string{"shell(curl:*)"}}, shellCall("f() { curl x; }; f"), DecisionDeny},
		{"deny beats allow", ModeDefault, Rules{Allow: []string{"shell"}, Deny: []string{"shell(git push:*)"}}, shellCall("git push origin main"), DecisionDeny},
		{"deny beats ask", ModeDefault, Rules{Ask: []string{"shell(git push:*)"}, Deny: []string{"shell(git push:*)"}}, shellCall("git push"), DecisionDeny},
		{"ask beats allow", ModeDefault, Rules{Allow: []string{"shell(git:*)"}, Ask: []string{"shell(git push:*)"}}, shellCall("git push"), DecisionAsk},
		{"ask beats bypass", ModeBypassPermissions, Rules{Ask: []string{"git_commit"}}, gitCall(), DecisionAsk},
		{"plan beats allow", ModePlan, Rules{Allow: []string{"shell", "edit(**)"}}, shellCall("go test"), DecisionDeny},
		{"plan beats allow (edit)", ModePlan, Rules{Allow: []string{"edit(**)"}}, editCall("a.go"), DecisionDeny},
		{"plan still reads", ModePlan, Rules{}, readCall("a.go"), DecisionAllow},
		{"deny read in plan", ModePlan, Rules{Deny: []string{"read(secrets/**)"}}, readCall("secrets/key"), DecisionDeny},

		{"edit glob all paths", ModeDefault, Rules{Allow: []string{"edit(src/**)"}}, editCall("src/a.go", "src/x/b.go"), DecisionAllow},
		{"edit glob one path outside", ModeDefault, Rules{Allow: []string{"edit(src/**)"}}, editCall("src/a.go", "main.go"), DecisionAsk},
		{"edit glob two rules", ModeDefault, Rules{Allow: []string{"edit(src/**)", "edit(*.md)"}}, editCall("src/a.go", "README.md"), DecisionAllow},
		{"edit rule by tool name", ModeDefault, Rules{Allow: []string{"edit_file(docs/**)"}}, editCall("docs/a.md"), DecisionAllow},
		{"edit rule other tool", ModeDefault, Rules{Allow: []string{"write_file(docs/**)"}}, editCall("docs/a.md"), DecisionAsk},
		{"edit deny any path", ModeAcceptEdits, Rules{Deny: []string{"edit(**/*.lock)"}}, editCall("a.go", "go/x.lock"), DecisionDeny},
		{"edit without paths not matched", ModeDefault, Rules{Allow: []string{"edit(**)"}}, editCall(), DecisionAsk},
		{"read deny", ModeDefault, Rules{Deny: []string{"read(secrets/**)"}}, readCall("secrets/prod.key"), DecisionDeny},
		{"read deny other path", ModeDefault, Rules{Deny: []string{"read(secrets/**)"}}, readCall("src/a.go"), DecisionAllow},
		{"read ask", ModeDefault, Rules{Ask: []string{"read(**/.env)"}}, readCall("svc/.env"), DecisionAsk},
		{"read deny with braces", ModeDefault, Rules{Deny: []string{"read(secrets/{prod,staging}/**)"}}, readCall("secrets/prod/key.pem"), DecisionDeny},
		{"read deny with braces, other dir", ModeDefault, Rules{Deny: []string{"read(secrets/{prod,staging}/**)"}}, readCall("secrets/dev/key.pem"), DecisionAllow},
		{"read deny by tool with braces", ModeDefault, Rules{Deny: []string{"read_file(**/*.{pem,key})"}}, readCall("a/b/c.key"), DecisionDeny},
		{"edit allow negated class", ModeDefault, Rules{Allow: []string{"edit([!.]*)"}}, editCall("main.go"), DecisionAllow},
		{"edit allow negated class excludes", ModeDefault, Rules{Allow: []string{"edit([!.]*)"}}, editCall(".env"), DecisionAsk},
		{"edit deny ** in the middle", ModeAcceptEdits, Rules{Deny: []string{"edit(src/**/gen/*.go)"}}, editCall("src/gen/a.go"), DecisionDeny},

		{"network domain", ModeDefault, Rules{Allow: []string{"network(domain:example.com)"}}, fetchCall("https://docs.example.com/x"), DecisionAllow},
		{"network other domain", ModeDefault, Rules{Allow: []string{"network(domain:example.com)"}}, fetchCall("https://example.org/"), DecisionAsk},
		{"fetch_url URL glob", ModeDefault, Rules{Allow: []string{"fetch_url(https://docs.example.com/*)"}}, fetchCall("https://docs.example.com/a/b"), DecisionAllow},
		{"fetch_url URL glob scheme", ModeDefault, Rules{Allow: []string{"fetch_url(https://docs.example.com/*)"}}, fetchCall("http://docs.example.com/a"), DecisionAsk},
		{"network deny", ModeBypassPermissions, Rules{Deny: []string{"network(domain:evil.org)"}}, fetchCall("https://a.evil.org/"), DecisionDeny},
		{"bare network", ModeDefault, Rules{Allow: []string{"network"}}, fetchCall("https://x.y/"), DecisionAllow},

		{"bare tool name", ModeDefault, Rules{Allow: []string{"git_commit"}}, gitCall("a.go"), DecisionAllow},
		{"bare kind name", ModeDefault, Rules{Allow: []string{"git"}}, gitCall(), DecisionAllow},
		{"git paths", ModeDefault, Rules{Allow: []string{"git(docs/**)"}}, gitCall("docs/a.md"), DecisionAllow},
		{"unrelated rule", ModeDefault, Rules{Allow: []string{"git_commit"}}, shellCall("git commit"), DecisionAsk},
	}
	for _, tt := range tests {
		p := mustPolicy(t, tt.mode, tt.rules)
		got, reason := p.Decide(tt.call.tool, tt.call.readOnly, tt.call.a)
		if got != tt.want {
			t.Errorf("%s: %v in %s with %+v = %s (%s), want %s", tt.name, tt.call, tt.mode, tt.rules, got, reason, tt.want)
		}
	}
}

// fakeApprover answers with a fixed Answer and counts questions.
type fakeApprover struct {
	mu     sync.Mutex
	answer Answer
	err    error
	asked  []string
}

func (f *fakeApprover) Approve(ctx context.Context, tool string, a access.Access) (Answer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, tool+":"+a.Command+strings.Join(a.Paths, ",")+a.URL)
	return f.answer, f.err
}

func (f *fakeApprover) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.asked)
}

func check(t *testing.T, p *Policy, ap Approver, c testCall) (bool, string) {
	t.Helper()
	ok, reason, err := p.Check(context.Background(), ap, c.tool, c.readOnly, c.a)
	if err != nil {
		t.Fatalf("Check(%v): %v", c, err)
	}
	return ok, reason
}

func TestCheckNilApprover(t *testing.T) {
	p := mustPolicy(t, ModeDefault, Rules{})
	ok, reason := check(t, p, nil, shellCall("go test ./pkg/..."))
	if ok || !strings.Contains(reason, "non-interactive") || !strings.Contains(reason, `"shell(go test:*)"`) {
		t.Errorf("ok %v, reason %q", ok, reason)
	}
	ok, reason = check(t, p, nil, editCall("src/a.go"))
	if ok || !strings.Contains(reason, `"edit(src/a.go)"`) {
		t.Errorf("ok %v, reason %q", ok, reason)
	}
	if ok, _ := check(t, p, nil, readCall("a.go")); !ok {
		t.Error("reads need no approver")
	}
}

func TestCheckAnswers(t *testing.T) {
	p := mustPolicy(t, ModeDefault, Rules{Deny: []string{"shell(rm:*)"}})
	once := &fakeApprover{answer: AllowOnce}
	for range 2 {
		if ok, _ := check(t, p, once, shellCall("make build")); !ok {
			t.Error("AllowOnce refused")
		}
	}
	if once.count() != 2 {
		t.Errorf("AllowOnce asked %d times, want 2 (once means once)", once.count())
	}
	no := &fakeApprover{answer: Deny}
	if ok, reason := check(t, p, no, shellCall("make build")); ok || !strings.Contains(reason, "denied") {
		t.Errorf("Deny answer: %v %q", ok, reason)
	}
	if ok, _ := check(t, p, once, shellCall("rm -rf build")); ok || once.count() != 2 {
		t.Error("a deny rule must not ask")
	}
	if ok, _ := check(t, p, once, readCall("x")); !ok || once.count() != 2 {
		t.Error("an allowed call must not ask")
	}
	failing := &fakeApprover{err: context.Canceled}
	if _, _, err := p.Check(context.Background(), failing, "shell", false, shellCall("make").a); !errors.Is(err, context.Canceled) {
		t.Errorf("approver error = %v", err)
	}
}

func TestCheckSessionAllowance(t *testing.T) {
	p := mustPolicy(t, ModeDefault, Rules{Deny: []string{"shell(go test -exec:*)"}})
	ap := &fakeApprover{answer: AllowSession}
	steps := []struct {
		call     testCall
		ok       bool
		askCount int
	}{
		{shellCall("go test ./pkg/..."), true, 1},
		{shellCall("go test -run X ./..."), true, 1},            // covered by shell(go test:*)
		{shellCall("timeout 60 go test ./..."), true, 1},        // harmless wrapper
		{shellCall("go test -exec sudo ./..."), false, 1},       // the deny rule still wins
		{shellCall("go vet ./..."), true, 2},                    // a different subcommand
		{shellCall("ls -la && cat go.mod | wc -l"), true, 3},    // three rules at once
		{shellCall("ls src && wc -c x && cat y"), true, 3},      // all covered now
		{shellCall("$TOOL run"), true, 4},                       // dynamic: allowed once...
		{shellCall("$TOOL run"), true, 5},                       // ...and asked again
		{editCall("src/[id].tsx"), true, 6},                     // that file
		{editCall("src/[id].tsx"), true, 6},                     //
		{editCall("src/i.tsx"), true, 7},                        // not another file
		{editCall("src/{a,b}.tsx"), true, 8},                    // braces in a name are literal
		{editCall("src/{a,b}.tsx"), true, 8},                    //
		{editCall("src/a.tsx"), true, 9},                        //
		{fetchCall("https://docs.example.com/a"), true, 10},     // the domain
		{fetchCall("https://docs.example.com/b?x=1"), true, 10}, //
		{gitCall("a.go"), true, 11},                             // the tool
		{gitCall("b.go"), true, 11},                             //
	}
	for i, s := range steps {
		ok, reason := check(t, p, ap, s.call)
		if ok != s.ok || ap.count() != s.askCount {
			t.Errorf("step %d %v: ok %v (%s), asked %d times; want %v, %d", i, s.call, ok, reason, ap.count(), s.ok, s.askCount)
		}
	}
	want := []string{
		"shell(go test:*)", "shell(go vet:*)", "shell(ls:*)", "shell(cat:*)", "shell(wc:*)",
		`edit(src/\[id\].tsx)`, "edit(src/i.tsx)", `edit(src/\{a,b\}.tsx)`, "edit(src/a.tsx)",
		"network(domain:docs.example.com)", "git_commit",
	}
	if got := p.SessionRules(); !slices.Equal(got, want) {
		t.Errorf("session rules\n got  %q\n want %q", got, want)
	}
	// A fresh policy has none: allowances belong to the session.
	if got := mustPolicy(t, ModeDefault, Rules{}).SessionRules(); len(got) != 0 {
		t.Errorf("new policy has session rules %q", got)
	}
	// Moving to another session forgets them: the next call is asked again.
	p.ForgetSession()
	if got := p.SessionRules(); len(got) != 0 {
		t.Errorf("session rules after ForgetSession: %q", got)
	}
	if ok, _ := check(t, p, ap, shellCall("go test ./pkg/...")); !ok || ap.count() != 12 {
		t.Errorf("after ForgetSession: ok %v, asked %d times; want asked again (12)", ok, ap.count())
	}
}

func TestSessionPrefixes(t *testing.T) {
	tests := map[string]string{
		"go test ./...":           "shell(go test:*)",
		"git status -s":           "shell(git status:*)",
		"git -C x status":         "shell(git:*)",
		"npm run build":           "shell(npm run:*)",
		"ls -la":                  "shell(ls:*)",
		"./scripts/check.sh fast": "shell(./scripts/check.sh:*)",
		"nice make test":          "shell(make test:*)",
		"FOO=1 make":              "shell(FOO=1 make:*)",
		"xargs rm":                "shell(xargs rm:*)",
	}
	for cmd, want := range tests {
		got := sessionRules(newCall("shell", shellCall(cmd).a))
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: %q, want %q", cmd, got, want)
		}
		if _, err := parseRule(want); err != nil {
			t.Errorf("%q: session rule does not parse: %v", cmd, err)
		}
	}
}

func TestPolicyConcurrentUse(t *testing.T) {
	p := mustPolicy(t, ModeDefault, Rules{Allow: []string{"shell(go test:*)"}})
	ap := &fakeApprover{answer: AllowSession}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				c := shellCall(fmt.Sprintf("tool%d run %d", i, j))
				if _, _, err := p.Check(context.Background(), ap, c.tool, false, c.a); err != nil {
					t.Error(err)
				}
				p.Decide("shell", false, shellCall("go test ./...").a)
			}
		})
	}
	wg.Wait()
	if n := len(p.SessionRules()); n != 8 {
		t.Errorf("%d session rules, want 8", n)
	}
}
