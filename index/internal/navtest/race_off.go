//go:build !race

package navtest

// RaceDetector: see race_on.go.
const RaceDetector = false
