package memory

import (
	"errors"
	"testing"
)

// TestVectorsOneOwner: the vector indices belong to the first handle that
// uses them; another handle on the same store (another process) gets
// ErrLocked while the memories stay shared, and gets the indices once the
// owner closes.
func TestVectorsOneOwner(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir, Workspace)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir, Workspace)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := a.Vectors(); err != nil {
		t.Fatalf("owner: %v", err)
	}
	if _, err := b.Vectors(); !errors.Is(err, ErrLocked) {
		t.Fatalf("second handle: %v, want ErrLocked", err)
	}
	if _, err := b.Add(Memory{Content: "memories stay shared", Type: "fact"}); err != nil {
		t.Fatalf("second handle's memory write: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Vectors(); err != nil {
		t.Fatalf("after the owner closed: %v", err)
	}
	if _, err := a.Vectors(); err == nil {
		t.Error("a closed handle opened the vector indices")
	}
}
