//go:build !race

package extract

// raceSlowdown: see race_on_test.go.
const raceSlowdown = 1
