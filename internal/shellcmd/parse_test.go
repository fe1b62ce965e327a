package shellcmd

import (
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/testenv"
)

func TestParseCommandSimpleCommands(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string // SimpleCommand.String() of each command
	}{
		{`go test ./...`, []string{"go test ./..."}},
		{`go test ./... && rm x`, []string{"go test ./...", "rm x"}},
		{`a; b || c | d`, []string{"a", "b", "c", "d"}},
		{`"go"   'test'  ./...`, []string{"go test ./..."}},
		{`FOO=1 BAR="a b" make`, []string{"FOO=1 BAR=a b make"}},
		{`echo $(git rev-parse HEAD)`, []string{"echo $(git rev-parse HEAD)", "git rev-parse HEAD"}},
		{"echo `date`", []string{"echo `date`", "date"}},
		{`(cd sub && make)`, []string{"cd sub", "make"}},
		{`sh -c 'go vet ./... && go test ./...'`, []string{"go vet ./...", "go test ./..."}},
		{`bash -c "sh -c 'ls'"`, []string{"ls"}},
		{`eval "go build"`, []string{"go build"}},
		{`find . -name x -exec grep -l foo {} +`, []string{"find . -name x -exec grep -l foo {} +", "grep -l foo {}"}},
		{`echo {a,b}.go`, []string{"echo a.go b.go"}},
		{`f() { go test; }; f`, []string{"go test", "f"}},
		{`FOO=1`, nil},
		{`cat <<EOF > out
hello
EOF`, []string{"cat"}},
		{`sh -c "$CMD"`, []string{`sh -c $CMD`}},
	}
	for _, tt := range tests {
		cmds, err := parseCommands(tt.cmd)
		if err != nil {
			t.Errorf("%q: %v", tt.cmd, err)
			continue
		}
		var got []string
		for _, c := range cmds {
			got = append(got, c.String())
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got  %q\n want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestParseCommandFields(t *testing.T) {
	cmds, err := parseCommands(`timeout 60 nice -n 5 go test -run X ./... > out.txt 2>&1`)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 1 {
		t.Fatalf("got %d commands", len(cmds))
	}
	c := cmds[0]
	if got, want := c.Args, []string{"go", "test", "-run", "X", "./..."}; !reflect.DeepEqual(got, want) {
		t.Errorf("Args = %q, want %q", got, want)
	}
	if got, want := c.Wrappers, []string{"timeout", "nice"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Wrappers = %q, want %q", got, want)
	}
	if c.Name() != "go" || c.Effective() != "go test -run X ./..." {
		t.Errorf("Name %q Effective %q", c.Name(), c.Effective())
	}
	if len(c.Redirects) != 1 || c.Redirects[0] != (Redirect{Op: ">", Target: "out.txt"}) {
		t.Errorf("Redirects = %+v (2>&1 is not a file)", c.Redirects)
	}

	nested, err := parseCommands(`bash -c 'rm -rf "$1"' _ build`)
	if err != nil {
		t.Fatal(err)
	}
	if len(nested) != 1 || nested[0].String() != "rm -rf build" || nested[0].Depth != 1 || nested[0].Dynamic {
		t.Errorf("positional substitution: %+v", nested)
	}
	dyn, _ := parseCommands(`rm -rf "$DIR"`)
	if len(dyn) != 1 || !dyn[0].Dynamic || dyn[0].Args[2] != "$DIR" {
		t.Errorf("dynamic word: %+v", dyn)
	}
	group, _ := parseCommands(`{ go test; echo $(date) > log; } > out 2>/dev/null`)
	if len(group) != 3 || len(group[0].Redirects) != 2 || group[0].Redirects[0].Target != "out" ||
		len(group[1].Redirects) != 3 || group[1].Redirects[0].Target != "log" || len(group[2].Redirects) != 2 {
		t.Errorf("a group's redirections apply to its commands: %+v", group)
	}
	inherited, _ := parseCommands(`GOFLAGS=-x env CGO_ENABLED=0 sh -c 'go build' > out`)
	if len(inherited) != 1 || inherited[0].String() != "GOFLAGS=-x CGO_ENABLED=0 go build" ||
		!reflect.DeepEqual(inherited[0].Wrappers, []string{"env"}) || len(inherited[0].Redirects) != 1 {
		t.Errorf("a nested script inherits assignments, wrappers and redirections: %+v", inherited)
	}
	lookup, _ := parseCommands(`command -v go`)
	if len(lookup) != 1 || lookup[0].Name() != "command" {
		t.Errorf("command -v is a lookup, not a wrapper: %+v", lookup)
	}
}

func TestParseCommandErrors(t *testing.T) {
	for _, cmd := range []string{
		`echo 'unterminated`,
		`if true; then`,
		`sh -c 'echo "unterminated'`,
		`echo $(`,
		`eval 'echo "x'`,
		`a && `,
	} {
		if _, err := parseCommands(cmd); err == nil {
			t.Errorf("%q: no error", cmd)
		}
	}
	deep := "true"
	for range maxShellNesting + 1 {
		q, _ := quoteForTest(deep)
		deep = "sh -c " + q
	}
	if _, err := parseCommands(deep); err == nil || !strings.Contains(err.Error(), "too deeply") {
		t.Errorf("deep nesting: err = %v", err)
	}
}

func quoteForTest(s string) (string, error) {
	q := quoteWords([]string{s})
	if len(q) != 1 {
		return "", errors.New("quote failed")
	}
	return q[0], nil
}

// TestANSICQuoting decodes $'...' words and checks each expectation
// against bash itself. expand and bash still differ on escapes of lone
// UTF-16 surrogates (\ud800: bash writes the surrogate's bytes, expand
// U+FFFD), which cannot spell an ASCII command or path.
func TestANSICQuoting(t *testing.T) {
	tests := []struct {
		body, want string
	}{
		{`a\nb`, "a\nb"},
		{`\t\r\v\f\a\b\e\E`, "\t\r\v\f\a\b\x1b\x1b"},
		{`\x41`, "A"},
		{`\x4g`, "\x04g"},
		{`\x414`, "A4"},
		{`\x72\x6d`, "rm"},
		{`\u00e9`, "é"},
		{`\U0001F600`, "😀"},
		{`it\'s`, "it's"},
		{`\"\?\\`, `"?\`},
		{`\101`, "A"},
		{`\0101`, "\b1"},
		{`\1234`, "S4"},
		{`\162m`, "rm"},
		{`\562\555`, "rm"}, // octal keeps the low eight bits
		{`\457`, "/"},
		{`rm\0zz`, "rm"}, // a NUL ends the string
		{`rm\400zz`, "rm"},
		{`rm\x00zz`, "rm"},
		{`\cA\ca\c?\c1`, "\x01\x01\x7f\x11"},
		{`x\c@y`, "x"},
		{`\c\\z`, "\x1cz"},
		{`\c`, `\c`},
		{`\q\x\u\xZ`, `\q\x\u\xZ`}, // unknown escapes stay as written
		{`%s%d`, "%s%d"},
	}
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Need(t, "bash not installed")
	}
	for _, tt := range tests {
		word := "$'" + tt.body + "'"
		out, err := exec.Command("bash", "-c", "printf %s "+word).Output()
		if err != nil {
			t.Fatalf("bash -c 'printf %%s %s': %v", word, err)
		}
		if string(out) != tt.want {
			t.Errorf("bash decodes %s as %q; the table says %q", word, out, tt.want)
		}
		cmds, err := parseCommands("echo " + word)
		if err != nil {
			t.Fatalf("%s: %v", word, err)
		}
		if got := cmds[0].Words[1]; got != tt.want || cmds[0].Dynamic {
			t.Errorf("%s = %q (dynamic %v), want %q as bash", word, got, cmds[0].Dynamic, tt.want)
		}
	}
}

func parseCommands(cmdline string) ([]SimpleCommand, error) {
	s, err := Parse(cmdline)
	if err != nil {
		return nil, err
	}
	return s.Commands(), nil
}
