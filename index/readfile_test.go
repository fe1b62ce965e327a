package index

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFile: the whole file comes back whatever size the walk saw, and
// failures are path errors like os.ReadFile's.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	long := bytes.Repeat([]byte("0123456789"), 1000)
	if err := os.WriteFile(filepath.Join(dir, "f"), long, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		size int64
		want []byte
	}{
		{"exact size", "f", int64(len(long)), long},
		{"grew since the walk", "f", 10, long},
		{"shrank since the walk", "f", 1 << 20, long},
		{"empty", "empty", 0, []byte{}},
		{"unknown size", "f", -1, long},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readFile(filepath.Join(dir, tc.path), tc.size)
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Fatalf("readFile = %d bytes, %v; want %d bytes", len(got), err, len(tc.want))
			}
		})
	}
	missing := filepath.Join(dir, "missing")
	_, err := readFile(missing, 0)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want a not-exist path error", err)
	}
	if _, err := readFile(dir, 0); err == nil {
		t.Fatal("reading a directory succeeded")
	}
}
