//go:build race

package navtest

// RaceDetector is true in a -race build. gotreesitter's Swift grammar,
// which loads in ~9 s and 1.2 GB normally, takes a minute and ~6 GB under
// the race detector, and its parses then overrun their budgets: the race
// run leaves Swift to the plain run (its resolution is the same
// interpreter as every other language's, which the race run covers).
const RaceDetector = true
