// Command gotest runs go test and enforces the project's rule on skipped
// tests: under CI (CI set), a skip is a failure unless its message starts
// with testenv.PlatformPrefix. It is what make test runs.
//
//	go run ./scripts/gotest [go test flags] [packages]
//
// It runs "go test -json" with the given arguments and prints what plain
// go test would print without -v: the package lines, the whole output of
// every failed test, build errors. Then it lists the skipped tests with
// their reasons and ends with a "N passed, N failed, N skipped" line.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/parleyhq/parley/internal/testenv"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type testKey struct{ pkg, test string }

type summary struct {
	passed, failed int
	skips          []skip
	buf            map[testKey][]string
}

type skip struct {
	name, reason string
	platform     bool
}

func main() {
	args := append([]string{"test", "-json"}, os.Args[1:]...)
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fatal(err)
	}
	if err := cmd.Start(); err != nil {
		fatal(err)
	}
	s := &summary{buf: map[testKey][]string{}}
	readErr := s.read(out, os.Stdout)
	runErr := cmd.Wait()
	os.Exit(s.report(os.Stdout, runErr, readErr, testenv.InCI()))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "gotest:", err)
	os.Exit(2)
}

// read consumes the event stream, echoing package output and the output of
// failed tests to w.
func (s *summary) read(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil || e.Action == "" {
			// Not an event (a build failure printed before the stream).
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		s.handle(e, w)
	}
	return sc.Err()
}

func (s *summary) handle(e event, w io.Writer) {
	k := testKey{e.Package, e.Test}
	if e.Test == "" {
		if e.Action == "output" && !packageNoise(e.Output) {
			io.WriteString(w, e.Output)
		}
		return
	}
	switch e.Action {
	case "output":
		s.buf[k] = append(s.buf[k], e.Output)
	case "pass":
		s.passed++
		delete(s.buf, k)
	case "fail":
		s.failed++
		io.WriteString(w, strings.Join(s.buf[k], ""))
		delete(s.buf, k)
	case "skip":
		reason := skipReason(s.buf[k])
		s.skips = append(s.skips, skip{
			name:     e.Package + " " + e.Test,
			reason:   reason,
			platform: strings.HasPrefix(reason, testenv.PlatformPrefix),
		})
		delete(s.buf, k)
	}
}

// packageNoise is package-level output plain go test would not print.
func packageNoise(out string) bool {
	return out == "PASS\n" || out == "testing: warning: no tests to run\n"
}

// skipReason is the message the test logged before "--- SKIP", without the
// "file.go:NN: " position t.Skip adds.
func skipReason(lines []string) string {
	var msg []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		if _, after, ok := strings.Cut(t, ".go:"); ok {
			if _, rest, ok := strings.Cut(after, ": "); ok {
				t = rest
			}
		}
		msg = append(msg, t)
	}
	return strings.Join(msg, " / ")
}

// report prints the skips and the closing line and returns the exit code.
func (s *summary) report(w io.Writer, runErr, readErr error, ci bool) int {
	sort.Slice(s.skips, func(i, j int) bool { return s.skips[i].name < s.skips[j].name })
	var refused int
	for _, sk := range s.skips {
		mark := "SKIP"
		if ci && !sk.platform {
			mark = "SKIP (not allowed in CI)"
			refused++
		}
		fmt.Fprintf(w, "--- %s: %s: %s\n", mark, sk.name, sk.reason)
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", s.passed, s.failed, len(s.skips))
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(runErr, &exit):
		code = 1
	case runErr != nil:
		fmt.Fprintln(w, "gotest:", runErr)
		code = 2
	}
	if readErr != nil {
		fmt.Fprintln(w, "gotest: reading go test -json:", readErr)
		code = max(code, 1)
	}
	if refused > 0 {
		fmt.Fprintf(w, "gotest: %d test(s) skipped under CI for a reason that is not the platform: "+
			"install what they need in .ci/run, or use testenv.Need / testenv.SkipPlatform\n", refused)
		code = max(code, 1)
	}
	return code
}
