//go:build race

package extract

// raceSlowdown scales the parse budgets of tests that check a file is
// parsed within the index's budget: the race detector makes gotreesitter
// 5-10x slower, and the budget is CPU time.
const raceSlowdown = 10
