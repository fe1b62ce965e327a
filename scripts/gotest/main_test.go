package main

import (
	"strings"
	"testing"
)

// stream is go test -json output for a package with a passing test, a
// failing one, a platform skip and a plain skip.
const stream = `{"Action":"run","Package":"p","Test":"TestOK"}
{"Action":"output","Package":"p","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"pass","Package":"p","Test":"TestOK"}
{"Action":"output","Package":"p","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"p","Test":"TestBad","Output":"    x_test.go:9: boom\n"}
{"Action":"fail","Package":"p","Test":"TestBad"}
{"Action":"output","Package":"p","Test":"TestFifo","Output":"    x_test.go:12: platform: mkfifo: not supported\n"}
{"Action":"output","Package":"p","Test":"TestFifo","Output":"--- SKIP: TestFifo (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestFifo"}
{"Action":"output","Package":"p","Test":"TestGit","Output":"    git_test.go:21: git not installed\n"}
{"Action":"skip","Package":"p","Test":"TestGit"}
{"Action":"output","Package":"p","Output":"PASS\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}
`

func TestSummary(t *testing.T) {
	tests := []struct {
		name     string
		ci       bool
		wantCode int
		want     []string
		notWant  []string
	}{
		{"local", false, 0,
			[]string{"    x_test.go:9: boom\n", "FAIL\tp\t0.01s\n", "--- SKIP: p TestGit: git not installed\n",
				"--- SKIP: p TestFifo: platform: mkfifo: not supported\n", "1 passed, 1 failed, 2 skipped\n"},
			[]string{"=== RUN   TestOK", "PASS\n"}},
		{"ci", true, 1,
			[]string{"--- SKIP (not allowed in CI): p TestGit: git not installed\n",
				"--- SKIP: p TestFifo: platform:", "1 test(s) skipped under CI"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &summary{buf: map[testKey][]string{}}
			var out strings.Builder
			if err := s.read(strings.NewReader(stream), &out); err != nil {
				t.Fatal(err)
			}
			// go test itself succeeded: the exit code comes from the skips alone.
			code := s.report(&out, nil, nil, tt.ci)
			if code != tt.wantCode {
				t.Errorf("code %d, want %d", code, tt.wantCode)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestSkipReason(t *testing.T) {
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"=== RUN   T\n", "    a_test.go:3: platform: no pty\n", "--- SKIP: T (0.00s)\n"}, "platform: no pty"},
		{[]string{"    a_test.go:3: first\n", "        second line\n"}, "first / second line"},
		{[]string{"--- SKIP: T (0.00s)\n"}, ""},
	}
	for _, tt := range tests {
		if got := skipReason(tt.lines); got != tt.want {
			t.Errorf("skipReason(%q) = %q, want %q", tt.lines, got, tt.want)
		}
	}
}
