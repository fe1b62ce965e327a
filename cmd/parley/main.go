// Command parley is a language server with an in-process coding agent. This
// package only wires subcommands to the packages that do the work.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/parleyhq/parley/internal/wire"
)

func main() {
	os.Exit(run())
}

func run() int {
	// PARLEY_CPUPROFILE is a developer aid for `make bench` investigations.
	if path := os.Getenv("PARLEY_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	if err := newRootCmd().Execute(); err != nil {
		var code exitCode
		if errors.As(err, &code) {
			return int(code)
		}
		// A server whose client broke the stream (parley mcp, parley acp)
		// ends with the status the docs name for it.
		var broken *wire.Error
		if errors.As(err, &broken) {
			fmt.Fprintf(os.Stderr, "parley: %v; exiting with status %d\n", err, wire.ExitBroken)
			return wire.ExitBroken
		}
		fmt.Fprintln(os.Stderr, "parley:", err)
		return 1
	}
	return 0
}
