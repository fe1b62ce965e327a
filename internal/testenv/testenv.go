// Package testenv states why a test cannot run, in a way CI can enforce.
//
// The project's rule: a test that skips in CI is a failure unless the skip
// is about the platform. Tests therefore never call t.Skip for a missing
// tool or fixture; they call Need, which skips on a developer's machine
// and fails under CI=true (where .ci/run installs everything). A skip that
// is about the platform (no pseudo-terminals, no FIFOs) goes through
// SkipPlatform, whose message starts with PlatformPrefix: scripts/gotest,
// which make test runs, fails a CI run on any other skip, so a stray
// t.Skip cannot hide a dropped test either.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// PlatformPrefix starts the message of every skip that CI accepts.
const PlatformPrefix = "platform: "

// InCI reports whether the tests run under CI (CI set and not "false").
func InCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// Need reports a missing prerequisite (a tool, a source tree): the test is
// skipped on a developer's machine and fails under CI.
func Need(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("%s (CI must provide it: see .ci/run)", msg)
	}
	t.Skip(msg)
}

// SkipPlatform skips a test that cannot run on this platform at all.
func SkipPlatform(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Skip(PlatformPrefix + fmt.Sprintf(format, args...))
}
