package extract

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	ts "github.com/odvcencio/gotreesitter"
)

// Values of the parser's cancellation flag; which one was stored tells a
// blown budget from a cancelled context and from the reparse cut
// (softBudgetFor).
const (
	stopCtx    uint32 = 1
	stopBudget uint32 = 2
	stopSoft   uint32 = 3
)

// softMinSize is the smallest file the reparse cut applies to: a smaller
// file's whole budget is little CPU, and every golden fixture is smaller,
// so their results never depend on where a cut lands.
const softMinSize = 16 << 10

// softBudgetFor is how much CPU time a parse of size bytes may take before
// it is cut (watchCPU) to see whether gotreesitter is still in its first
// pass or already reparsing. When the
// first pass accepts a tree with ERROR nodes, gotreesitter reruns the whole
// parse up to three more times with wider GLR limits (parser_retry.go),
// keeping the best tree. On a file whose errors are real the reruns rarely
// help and cost 3-10x the first pass: GOROOT's regexp/testdata/testregex.c
// (preprocessor lines inside an initializer) parses once in ~0.1 s, then
// reparses for ~0.6 s more and yields the same records; a minified script
// there reparses for 1.1 s. The library offers no switch for the reruns
// (a C file's are avoided by hiding its token source's Reset, see
// treesitter_noretry.go; other grammars lex inside the library) and no
// cheap signal of where a parse is (its logger formats a string per
// token: +40% on the Python stdlib), so the cut is by time: 3 ms of CPU
// per KiB is over 1.5x the slowest ordinary file measured (pydoc.py, 2.3
// ms/KiB; C and TypeScript run under 0.7), plus a base for a collector
// pause. A variable so tests can move the cut.
var softBudgetFor = func(size int) time.Duration {
	return 200*time.Millisecond + time.Duration(size/1024)*3*time.Millisecond
}

// errAbandoned reports a parse that ignored its stop flag past the grace
// period and was left to finish in the background.
var errAbandoned = errors.New("parse abandoned")

// runaways bounds the parses left running in the background. gotreesitter
// polls the stop flag in its main loop but not in every recovery phase
// (unclosed brackets at EOF take quadratic time in its EOF recovery: 50k
// "(" take 18 s), so a watchdog returns control to the caller. When this
// many abandoned parses are still burning CPU, new overruns are waited for
// instead, so a hostile repository cannot pile up work.
var runaways = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

type parseResult struct {
	tree     *ts.Tree
	err      error
	panicked any
}

// parse parses src within budget. A file of softMinSize or more is first
// parsed under softBudgetFor: if that cut finds the first pass complete
// (its tree reaches the end of the input), gotreesitter was only reparsing
// to lose ERROR nodes, and its best tree so far is kept with stopSoft; if
// the first pass was still running, the file is parsed again under the
// whole budget, so a slow file yields what it did without the cut, for up
// to softBudgetFor more time. Giving the second parse only what was left
// would cut it earlier than before, most often on a loaded machine.
// masked: src is already as the language's mask leaves it.
func (e *tsExtractor) parse(ctx context.Context, c *compiled, src []byte, masked bool, budget time.Duration) (*ts.Tree, uint32, error) {
	if e.spec.mask != nil && !masked {
		src = e.spec.mask(src)
	}
	soft := softBudgetFor(len(src))
	if len(src) < softMinSize || soft >= budget {
		return e.parseUnder(ctx, c, src, budget, budget)
	}
	tree, stopped, err := e.parseUnder(ctx, c, src, soft, budget)
	if err != nil || stopped != stopSoft {
		return tree, stopped, err
	}
	if firstPassDone(tree.ParseRuntime(), len(src)) {
		return tree, stopSoft, nil
	}
	tree.Release()
	return e.parseUnder(ctx, c, src, budget, budget)
}

// firstPassDone tells from a tree stopped at the cut whether it reaches the
// end of the input, which a first pass stopped part way cannot. When a
// reparse is stopped, gotreesitter keeps whichever tree it ranks best; that
// can be the stopped reparse's, stretched to the end of the input but
// marked truncated, which does not count.
func firstPassDone(rt ts.ParseRuntime, n int) bool {
	return !rt.Truncated && int(rt.LastTokenEndByte) >= n
}

// softPoll is how often watchCPU reads the parse thread's CPU clock.
const softPoll = 10 * time.Millisecond

// cpuClock reads a thread's CPU time; a variable so tests can slow it.
var cpuClock = threadCPU

// overrunFor is how much CPU past its budget a parse that ignores its stop
// flag may take before it is abandoned (gotreesitter does not poll the
// flag in every recovery phase).
func overrunFor(budget time.Duration) time.Duration { return budget + budget/4 + 50*time.Millisecond }

// backstopFor bounds a parse's wall time whatever its CPU clock says: a
// parse starved on a machine this loaded is abandoned as one that ignores
// its flag is.
func backstopFor(budget time.Duration) time.Duration { return 8*overrunFor(budget) + time.Second }

// watchCPU stops the parse whose thread ID comes on tids by its CPU time,
// not wall time: flag becomes stopSoft once the thread has run for soft
// (when soft is below budget) and stopBudget once it has run for budget,
// and overrun is closed once it has run for overrunFor(budget), the
// parse having ignored its flag. Counting the thread's CPU time keeps the
// cuts where the rates behind BudgetFor and softBudgetFor put them on a
// loaded machine: by wall time a file's result depended on the load (a
// wall-clock reparse cut landed inside testregex.c's first pass; a 20 KB
// script was stored partial at load 6). Where the clock cannot be read it
// falls back to wall time. While it reads the clock it also stops the parse
// (stopMemory) once the live heap has grown by liveHeapGrowthLimit since
// the parse began: the bound gotreesitter's own heap reads kept, which
// treesitter_memory.go turns off.
func watchCPU(flag *uint32, soft, budget time.Duration, tids <-chan int, finished <-chan struct{}, overrun chan<- struct{}) {
	cutSoft := func() { atomic.CompareAndSwapUint32(flag, 0, stopSoft) }
	cutBudget := func() { atomic.CompareAndSwapUint32(flag, 0, stopBudget) }
	if soft < budget && soft <= 0 {
		cutSoft()
	}
	if budget <= 0 {
		cutBudget()
	}
	var tid int
	select {
	case tid = <-tids:
	case <-finished:
		return
	}
	start, ok := cpuClock(tid)
	heapBase := liveHeap()
	if !ok {
		watchWall(soft, budget, cutSoft, cutBudget, finished, overrun)
		return
	}
	tick := time.NewTicker(softPoll)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			now, ok := cpuClock(tid)
			if !ok {
				watchWall(soft, budget, cutSoft, cutBudget, finished, overrun)
				return
			}
			if heapGrown(heapBase) {
				atomic.CompareAndSwapUint32(flag, 0, stopMemory)
			}
			switch ran := now - start; {
			case ran >= overrunFor(budget):
				close(overrun)
				return
			case ran >= budget:
				cutBudget()
			case soft < budget && ran >= soft:
				cutSoft()
			}
		case <-finished:
			return
		}
	}
}

// watchWall is watchCPU by wall time.
func watchWall(soft, budget time.Duration, cutSoft, cutBudget func(), finished <-chan struct{}, overrun chan<- struct{}) {
	if soft < budget {
		t := time.AfterFunc(soft, cutSoft)
		defer t.Stop()
	}
	b := time.AfterFunc(budget, cutBudget)
	defer b.Stop()
	o := time.NewTimer(overrunFor(budget))
	defer o.Stop()
	select {
	case <-o.C:
		close(overrun)
	case <-finished:
	}
}

// parseUnder runs one parse on a pooled parser. The parser's cancellation
// flag stops it when its thread has run for soft (stopSoft, unless soft is
// the budget) or for budget (stopBudget), or when ctx is done: the
// parser's own timeout calls time.Now on every poll, which costs about 5%
// of the parse, while the flag is one atomic load. The parse runs on its
// own goroutine, locked to its thread so watchCPU can read its clock, so
// that a phase ignoring the flag cannot hold the caller much past budget.
func (e *tsExtractor) parseUnder(ctx context.Context, c *compiled, src []byte, soft, budget time.Duration) (*ts.Tree, uint32, error) {
	// Creating a parser can take longer than a small file's budget (Swift's
	// tables), so it happens before the clock starts.
	p := e.parsers.get(c.lang)
	flag := new(uint32)
	stopCtxWatch := context.AfterFunc(ctx, func() { atomic.CompareAndSwapUint32(flag, 0, stopCtx) })
	defer stopCtxWatch()
	tids := make(chan int, 1)
	finished := make(chan struct{})
	// The watcher is waited for, so that it never reads the clock or the
	// heap hooks (variables tests replace) after the call has returned.
	watching := make(chan struct{})
	defer func() { close(finished); <-watching }()
	overrun := make(chan struct{})
	go func() {
		defer close(watching)
		watchCPU(flag, soft, budget, tids, finished, overrun)
	}()

	done := make(chan parseResult, 1)
	go e.parseOn(c, p, src, flag, tids, done)

	backstop := time.NewTimer(backstopFor(budget))
	defer backstop.Stop()
	var r parseResult
	select {
	case r = <-done:
	case <-overrun:
		r = e.abandon(done)
	case <-backstop.C:
		r = e.abandon(done)
	case <-ctx.Done():
		r = e.abandon(done)
	}
	if r.panicked != nil {
		return nil, 0, fmt.Errorf("parser panicked: %v", r.panicked)
	}
	if r.err == nil && r.tree == nil {
		r.err = fmt.Errorf("parser returned no tree")
	}
	return r.tree, atomic.LoadUint32(flag), r.err
}

// parseOn is the parse goroutine. Only a parser that returned normally goes
// back to the pool: after a panic its state is unknown.
// It sends the ID of the thread it is locked to on tids, for watchCPU.
func (e *tsExtractor) parseOn(c *compiled, p *ts.Parser, src []byte, flag *uint32, tids chan<- int, done chan<- parseResult) {
	defer func() {
		if p := recover(); p != nil {
			done <- parseResult{panicked: p}
		}
	}()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tids <- threadID()
	p.SetTimeoutMicros(0)
	p.SetCancellationFlag(flag)
	var r parseResult
	if c.factory != nil {
		r.tree, r.err = p.ParseWithTokenSourceFactory(src, func(b []byte) (ts.TokenSource, error) {
			return c.tokenSource(b), nil
		})
	} else {
		r.tree, r.err = parseMaybeForest(p, src, e.spec.forest)
	}
	p.SetCancellationFlag(nil)
	e.parsers.put(p)
	done <- r
}

// abandon leaves an overrunning parse to finish in the background, or waits
// for it when too many already run that way.
func (e *tsExtractor) abandon(done <-chan parseResult) parseResult {
	select {
	case runaways <- struct{}{}:
	default:
		return <-done
	}
	go func() {
		if r := <-done; r.tree != nil {
			r.tree.Release()
		}
		<-runaways
	}()
	return parseResult{err: errAbandoned}
}

// LiftReparseCut removes the reparse cut (softBudgetFor) for the rest of
// the process, so that a parse runs only under Options.Budget: for tests
// that compare a scanner with tree-sitter's best tree. Not safe to call
// while files are being extracted.
func LiftReparseCut() {
	softBudgetFor = func(int) time.Duration { return 1 << 62 }
}
