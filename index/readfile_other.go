//go:build !unix

package index

import "os"

// readFile reads the file at path; see readfile_unix.go for why Unix
// systems read it differently.
func readFile(path string, _ int64) ([]byte, error) { return os.ReadFile(path) }
