package extract

import (
	"os"
	"runtime/metrics"

	ts "github.com/odvcencio/gotreesitter"
)

// gotreesitter bounds each parse's memory (GOT_PARSE_MEMORY_BUDGET_MB,
// 512 MiB unless set) three ways: its node arena, its scratch space, and,
// for inputs of 64 KiB or more, the growth of the whole process's heap
// (parser_memory_budget_runtime.go), which it reads with
// runtime.ReadMemStats at the parse's start and every 16th poll after.
// ReadMemStats stops the world, and every parsing goroutine does it at
// once: a cold index of the Python 3.11 standard library spent 27 of 103
// CPU seconds in the kernel, futex 84% of its system calls, and took
// 64-71 s against 25.5 s without. The heap it reads also counts what the
// other parses allocated and the garbage not yet collected, so a file
// parsed beside others ran "out of memory" it never used and was stored
// partial (8 files there; 3 without the budget).
//
// The library reads the variable once, at the first parse, and the one
// number sets all three bounds, so there is no way to keep the arena's
// and the scratch's without the heap's. It is set to 0 here, before any
// parse, unless the user set it. What bounds a runaway parse instead: the
// library's node, iteration and stack-depth limits (52 nodes and 30
// iterations per input byte), parley's CPU-time budget per file (BudgetFor,
// watched by watchCPU), and the live-heap bound below.
const memoryBudgetEnv = "GOT_PARSE_MEMORY_BUDGET_MB"

func init() {
	if _, set := os.LookupEnv(memoryBudgetEnv); !set {
		os.Setenv(memoryBudgetEnv, "0")
	}
}

// stopMemory is the cancellation flag's value for a parse stopped by
// liveHeapGrowthLimit.
const stopMemory uint32 = 4

// liveHeapGrowthLimit is how far the live heap may grow while a parse runs
// before watchCPU stops it: the library's own per-parse default, measured
// on a signal without garbage. A variable so tests can lower it.
var liveHeapGrowthLimit uint64 = 512 << 20

// liveHeapMetric is the heap the last collection marked live: unlike
// HeapAlloc it holds no garbage, so it grows only with memory something
// keeps, and runtime/metrics reads it without stopping the world. It lags
// by one collection, and a parse whose live memory grows fast makes
// collections come often, so the bound trips late by at most about the
// heap's size (GOGC=100).
const liveHeapMetric = "/gc/heap/live:bytes"

// liveHeap returns the live heap in bytes, 0 where the runtime lacks the
// metric (which turns the bound off); a variable so tests can grow it.
var liveHeap = readLiveHeap

func readLiveHeap() uint64 {
	s := [1]metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// heapGrown tells whether the live heap has grown past the limit since base.
func heapGrown(base uint64) bool {
	now := liveHeap()
	return now > base && now-base >= liveHeapGrowthLimit
}

// drainMinSize is the input size from which releasing a tree also empties
// gotreesitter's arena pools. The library keeps up to four released node
// arenas for reuse, each as large as the biggest parse it served (up to
// 128 MiB), so after a few large files two to three hundred MB of arenas
// stay live for the rest of the run: the collector marks them on every
// cycle and the heap cannot shrink under the indexer's memory limit
// (tuneGC). On the Python 3.11 standard library under a 300 MiB limit the
// heap left live after a collection went from 244-254 MB to 166-167 MB and
// the collector from 7% to 3% of the run when every file of 64 KiB or
// more emptied the pools; a smaller file's arena is small, and reallocating
// one costs less than marking the big ones.
const drainMinSize = 64 << 10

// releaseTree releases a tree parsed from size bytes of input.
func releaseTree(tree *ts.Tree, size int) {
	tree.Release()
	if size >= drainMinSize {
		ts.DrainArenaPools()
	}
}
