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
// blown budget from a cancelled context.
const (
	stopCtx    uint32 = 1
	stopBudget uint32 = 2
)

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

// parse runs one parse on a pooled parser under the budget. Both the budget
// and ctx stop it through the parser's cancellation flag: the parser's own
// timeout calls time.Now on every poll, which costs about 5% of the parse,
// while the flag is one atomic load. The parse runs on its own goroutine so
// a phase that ignores the flag cannot hold the caller much past budget.
func (e *tsExtractor) parse(ctx context.Context, c *compiled, src []byte, budget time.Duration) (*ts.Tree, uint32, error) {
	// Creating a parser can take longer than a small file's budget (Swift's
	// tables), so it happens before the clock starts.
	p, _ := e.parsers.Get().(*ts.Parser)
	if p == nil {
		p = ts.NewParser(c.lang)
	}
	flag := new(uint32)
	stopCtxWatch := context.AfterFunc(ctx, func() { atomic.CompareAndSwapUint32(flag, 0, stopCtx) })
	defer stopCtxWatch()
	budgetTimer := time.AfterFunc(budget, func() { atomic.CompareAndSwapUint32(flag, 0, stopBudget) })
	defer budgetTimer.Stop()

	if e.spec.mask != nil {
		src = e.spec.mask(src)
	}
	done := make(chan parseResult, 1)
	go e.parseOn(c, p, src, flag, done)

	watchdog := time.NewTimer(budget + budget/4 + 50*time.Millisecond)
	defer watchdog.Stop()
	var r parseResult
	select {
	case r = <-done:
	case <-watchdog.C:
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
func (e *tsExtractor) parseOn(c *compiled, p *ts.Parser, src []byte, flag *uint32, done chan<- parseResult) {
	defer func() {
		if p := recover(); p != nil {
			done <- parseResult{panicked: p}
		}
	}()
	p.SetTimeoutMicros(0)
	p.SetCancellationFlag(flag)
	var r parseResult
	if c.factory != nil {
		r.tree, r.err = p.ParseWithTokenSourceFactory(src, func(b []byte) (ts.TokenSource, error) {
			return c.factory(b, c.lang), nil
		})
	} else {
		r.tree, r.err = p.Parse(src)
	}
	p.SetCancellationFlag(nil)
	e.parsers.Put(p)
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
