package testenv

import (
	"fmt"
	"runtime"
	"testing"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skip(args ...any) {
	r.skip = fmt.Sprint(args...)
	runtime.Goexit()
}

func run(f func(t testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() { defer close(done); f(r) }()
	<-done
	return r
}

func TestNeed(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := run(func(t testing.TB) { Need(t, "no %s", "git") })
		if ci == "" && (r.skip != "no git" || r.fatal != "") {
			t.Errorf("outside CI: skip %q fatal %q, want a skip", r.skip, r.fatal)
		}
		if ci != "" && (r.fatal == "" || r.skip != "") {
			t.Errorf("in CI: skip %q fatal %q, want a failure", r.skip, r.fatal)
		}
	}
}

func TestSkipPlatform(t *testing.T) {
	r := run(func(t testing.TB) { SkipPlatform(t, "no %s", "pty") })
	if r.skip != PlatformPrefix+"no pty" {
		t.Errorf("skip %q", r.skip)
	}
}
