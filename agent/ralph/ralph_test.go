package ralph

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	r, err := Parse([]byte("---\nagent: claude -p\ncommands:\n  - name: tests\n    run: go test ./...\n    timeout: 5\nargs: [dir, focus]\ncredit: false\n---\nBody {{ commands.tests }}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Agent != "claude -p" || len(r.Commands) != 1 || r.Commands[0].Timeout != 5*time.Second || r.Commands[0].Run != "go test ./..." ||
		!slices.Equal(r.Args, []string{"dir", "focus"}) || r.Credit || r.Body != "Body {{ commands.tests }}\n" {
		t.Errorf("parsed %+v", r)
	}
	if r, err := Parse([]byte("just a prompt")); err != nil || r.Body != "just a prompt" || !r.Credit || r.Agent != "" {
		t.Errorf("no frontmatter: %+v, %v", r, err)
	}
	if r, err := Parse([]byte("---\n---\nprompt")); err != nil || r.Body != "prompt" {
		t.Errorf("empty frontmatter: %+v, %v", r, err)
	}
	for _, bad := range []string{
		"---\nagent: x\n",       // no closing fence
		"---\nagents: x\n---\n", // unknown key
		"---\ncommands:\n  - name: a b\n    run: x\n---\n", // bad name
		"---\ncommands:\n  - name: a\n    run: x\n  - name: a\n    run: y\n---\n",
		"---\ncommands:\n  - name: a\n---\n",
		"---\ncommands:\n  - name: a\n    run: x\n    timeout: -1\n---\n",
		"---\nargs: [\"a b\"]\n---\n",
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestResolve(t *testing.T) {
	v := Values{
		Commands: map[string]string{"tests": "ok {{ args.dir }}"},
		Args:     map[string]string{"dir": "src {{ commands.tests }}"},
		Ralph:    map[string]string{"name": "r", "iteration": "3", "max_iterations": "5"},
	}
	got := Resolve("{{commands.tests}}|{{ args.dir }}|{{ ralph.name }} {{ ralph.iteration }}/{{ ralph.max_iterations }}|{{ commands.nope }}|{{ other.x }}", v)
	want := "ok {{ args.dir }}|src {{ commands.tests }}|r 3/5||{{ other.x }}"
	if got != want {
		t.Errorf("Resolve = %q, want %q", got, want)
	}
	if got := ResolveArgs("run {{ args.dir }} {{ commands.x }}", v.Args); got != "run src {{ commands.tests }} {{ commands.x }}" {
		t.Errorf("ResolveArgs = %q", got)
	}
}

func TestParseArgs(t *testing.T) {
	got, err := ParseArgs([]string{"dir", "focus"}, []string{"--focus=speed", "src"})
	if err != nil || got["dir"] != "src" || got["focus"] != "speed" {
		t.Errorf("got %v, %v", got, err)
	}
	got, err = ParseArgs([]string{"dir"}, []string{"--dir", "a b"})
	if err != nil || got["dir"] != "a b" {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range [][]string{{"--nope", "x"}, {"a", "b", "c"}, {"--dir"}} {
		if _, err := ParseArgs([]string{"dir", "focus"}, bad); err == nil {
			t.Errorf("ParseArgs(%q) accepted", bad)
		}
	}
}

// collect records events.
type collect struct{ events []Event }

func (c *collect) emit(e Event) { c.events = append(c.events, e) }

func (c *collect) types() []string {
	var out []string
	for _, e := range c.events {
		if e.Type != AgentActivity {
			out = append(out, e.Type)
		}
	}
	return out
}

func (c *collect) of(typ string) []Event {
	var out []Event
	for _, e := range c.events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// writeRalph writes dir/RALPH.md and returns its path.
func writeRalph(t *testing.T, dir, text string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// promptsOf splits what the fake agent recorded into its prompts.
func promptsOf(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(data), "\n<<END>>\n")
	return parts[:len(parts)-1]
}

// fakeAgent is an agent command line that appends its prompt to prompts.txt.
const fakeAgent = `sh -c 'cat >> prompts.txt; printf "\n<<END>>\n" >> prompts.txt; echo working; echo done'`

func TestLoopFillsEveryPlaceholder(t *testing.T) {
	project := t.TempDir()
	path := writeRalph(t, filepath.Join(project, "fixer"), `---
agent: `+fakeAgent+`
commands:
  - name: greet
    run: echo hello {{ args.who }}
  - name: script
    run: ./report.sh
  - name: fails
    run: sh -c 'echo broken; exit 3'
  - name: slow
    run: sh -c 'echo started; sleep 30'
    timeout: 0.3
args: [who, mood]
credit: false
---
greet={{ commands.greet }}
script={{ commands.script }}
fails={{ commands.fails }}
slow={{ commands.slow }}
who={{ args.who }} mood={{ args.mood }} missing=[{{ args.nope }}{{ commands.nope }}{{ ralph.nope }}]
ralph={{ ralph.name }} {{ ralph.iteration }}/{{ ralph.max_iterations }}
`)
	if err := os.WriteFile(filepath.Join(project, "fixer", "report.sh"), []byte("#!/bin/sh\necho \"report from $(pwd)\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ev := &collect{}
	l := New(Options{Path: path, ProjectDir: project, RunID: "r1", MaxIterations: 2, Args: []string{"world", "--mood=calm"},
		LogDir: filepath.Join(project, "logs"), Emit: ev.emit})
	reason, err := l.Run(context.Background())
	if err != nil || reason != StopCompleted {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	prompts := promptsOf(t, filepath.Join(project, "prompts.txt"))
	if len(prompts) != 2 {
		t.Fatalf("%d prompts", len(prompts))
	}
	want := "greet=hello world\nscript=report from " + project + "\nfails=broken\nslow=started\nwho=world mood=calm missing=[]\nralph=fixer 2/2\n"
	if prompts[1] != want {
		t.Errorf("prompt 2:\n%s\nwant:\n%s", prompts[1], want)
	}
	var codes []string
	for _, e := range ev.of(CommandCompleted)[:4] {
		codes = append(codes, e.Data.Name+":"+strconv.Itoa(*e.Data.ReturnCode)+":"+strconv.FormatBool(e.Data.TimedOut))
	}
	if got := strings.Join(codes, " "); got != "greet:0:false script:0:false fails:3:false slow:-1:true" {
		t.Errorf("command results %s", got)
	}
	wantTypes := []string{RunStarted,
		IterationStarted, CommandsStarted, CommandCompleted, CommandCompleted, CommandCompleted, CommandCompleted, CommandsCompleted, PromptAssembled, IterationDone,
		IterationStarted, CommandsStarted, CommandCompleted, CommandCompleted, CommandCompleted, CommandCompleted, CommandsCompleted, PromptAssembled, IterationDone,
		RunStopped}
	if got := ev.types(); !slices.Equal(got, wantTypes) {
		t.Errorf("events %v", got)
	}
	if a := ev.of(AgentActivity); len(a) != 4 || a[0].Data.Line != "working" {
		t.Errorf("activity %+v", a)
	}
	done := ev.of(IterationDone)[0]
	log, err := os.ReadFile(done.Data.LogFile)
	if err != nil || !strings.Contains(string(log), "greet=hello world") || !strings.Contains(string(log), "working\ndone") {
		t.Errorf("log %s: %q, %v", done.Data.LogFile, log, err)
	}
}

func TestLoopCredit(t *testing.T) {
	for _, tc := range []struct {
		front string
		want  bool
	}{{"", true}, {"credit: true\n", true}, {"credit: false\n", false}} {
		project := t.TempDir()
		path := writeRalph(t, project, "---\nagent: "+fakeAgent+"\n"+tc.front+"---\ndo it")
		if _, err := New(Options{Path: path, ProjectDir: project, MaxIterations: 1}).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		p := promptsOf(t, filepath.Join(project, "prompts.txt"))[0]
		if got := strings.Contains(p, CreditTrailer); got != tc.want {
			t.Errorf("%q: prompt %q", tc.front, p)
		}
	}
}

func TestLoopFailuresAndTimeouts(t *testing.T) {
	project := t.TempDir()
	path := writeRalph(t, project, "---\nagent: sh -c 'exit 4'\n---\nx")
	ev := &collect{}
	reason, err := New(Options{Path: path, ProjectDir: project, MaxIterations: 3, Emit: ev.emit}).Run(context.Background())
	if err != nil || reason != StopCompleted || len(ev.of(IterationFailed)) != 3 {
		t.Errorf("without --stop-on-error: %q, %v, %d failed", reason, err, len(ev.of(IterationFailed)))
	}
	ev = &collect{}
	reason, _ = New(Options{Path: path, ProjectDir: project, MaxIterations: 3, StopOnError: true, Emit: ev.emit}).Run(context.Background())
	if reason != StopError || len(ev.of(IterationFailed)) != 1 || ev.of(RunStopped)[0].Data.Reason != StopError {
		t.Errorf("with --stop-on-error: %q, %v", reason, ev.types())
	}

	path = writeRalph(t, project, "---\nagent: sh -c 'sleep 30 & echo $! > bg.pid; sleep 30'\n---\nx")
	ev = &collect{}
	reason, _ = New(Options{Path: path, ProjectDir: project, MaxIterations: 1, Timeout: 300 * time.Millisecond, Emit: ev.emit}).Run(context.Background())
	if reason != StopCompleted || len(ev.of(IterationTimedOut)) != 1 {
		t.Errorf("timeout: %q, %v", reason, ev.types())
	}
	checkDead(t, filepath.Join(project, "bg.pid"))
}

// checkDead fails when the process whose PID is in file still runs.
func checkDead(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(data))
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("process %s survived", pid)
	}
}

func alive(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestLoopStopFinishesTheIteration(t *testing.T) {
	project := t.TempDir()
	path := writeRalph(t, project, "---\nagent: "+fakeAgent+"\n---\nx")
	var l *Loop
	ev := &collect{}
	l = New(Options{Path: path, ProjectDir: project, Emit: func(e Event) {
		ev.emit(e)
		if e.Type == PromptAssembled {
			l.Stop()
		}
	}})
	reason, err := l.Run(context.Background())
	if err != nil || reason != StopUserRequested || len(ev.of(IterationDone)) != 1 {
		t.Errorf("Run = %q, %v; events %v", reason, err, ev.types())
	}
}

// Ralphify's documented examples run unchanged (testdata/ralphify).
func TestRalphifyExamples(t *testing.T) {
	bin := t.TempDir()
	for name, script := range map[string]string{
		"claude": "#!/bin/sh\ncat > \"$PROMPT_OUT\"\necho \"claude $*\" >> \"$PROMPT_OUT\"\n",
		"uv":     "#!/bin/sh\necho \"3 passed ($*)\"\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tc := range []struct{ dir, want string }{
		{"grow-coverage", "## Current coverage\n\ncoverage: 42%\n"},
		{"my-ralph", "## Test results\n3 passed (run pytest)\nIf any tests are failing"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "prompt.txt")
			t.Setenv("PROMPT_OUT", out)
			path, err := Locate(filepath.Join("testdata", "ralphify", tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			reason, err := New(Options{Path: path, ProjectDir: t.TempDir(), MaxIterations: 1}).Run(context.Background())
			if err != nil || reason != StopCompleted {
				t.Fatalf("Run = %q, %v", reason, err)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(data); !strings.Contains(got, tc.want) || !strings.Contains(got, "claude -p --dangerously-skip-permissions") {
				t.Errorf("the agent got:\n%s", got)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nagent: claude -p\ncommands:\n  - name: t\n    run: go test\n    timeout: 5\nargs: [a]\ncredit: false\n---\n{{ commands.t }} {{ args.a }}"))
	f.Add([]byte("---\r\n---\r\nbody"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		for _, c := range r.Commands {
			if c.Timeout <= 0 || c.Name == "" {
				t.Fatalf("command %+v", c)
			}
		}
		Resolve(r.Body, Values{})
	})
}

// creditProbe is an in-process agent recording whether its iteration is
// credited.
type creditProbe struct{ credited []bool }

func (c *creditProbe) RunPrompt(ctx context.Context, _ string, _ io.Writer) (int, error) {
	c.credited = append(c.credited, Credited(ctx))
	return 0, nil
}

// An agent that commits itself (parley's own) learns from the context
// whether to add the credit trailer.
func TestLoopCreditInProcess(t *testing.T) {
	for _, tc := range []struct {
		front string
		want  bool
	}{{"", true}, {"credit: false\n", false}} {
		project := t.TempDir()
		path := writeRalph(t, project, "---\n"+tc.front+"---\ndo it")
		probe := &creditProbe{}
		if _, err := New(Options{Path: path, ProjectDir: project, MaxIterations: 2, Agent: probe}).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(probe.credited) != 2 || probe.credited[0] != tc.want || probe.credited[1] != tc.want {
			t.Errorf("%q: credited %v, want %v twice", tc.front, probe.credited, tc.want)
		}
	}
}
