package main

import (
	"os"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// waitFile waits (bounded) until the file args[0] exists and is not empty,
// or contains args[1]: a background command got that far.
func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile FILE [SUBSTRING]")
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		if err == nil && len(data) > 0 && (len(args) == 1 || strings.Contains(string(data), args[1])) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s did not appear (or does not hold %q)", args[0], args[1:])
}

// deadPID fails when the process whose PID is in the file args[0] is
// still running (zombies count as dead), after a bounded wait for a
// signal already sent to land.
func deadPID(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: deadpid FILE")
	}
	pid := strings.TrimSpace(ts.ReadFile(args[0]))
	deadline := time.Now().Add(10 * time.Second)
	for running(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if running(pid) {
		ts.Fatalf("process %s (from %s) is still running", pid, args[0])
	}
}

func running(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
