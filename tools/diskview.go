package tools

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxFileSize is the largest file the file tools read or write (10 MiB, as
// in seed 002). Larger files are refused rather than truncated.
const MaxFileSize = 10 << 20

// ErrFileTooLarge is wrapped by reads of files above MaxFileSize.
var ErrFileTooLarge = errors.New("file too large")

// ErrIsDirectory is wrapped by reads of directories.
var ErrIsDirectory = errors.New("is a directory")

// ErrNotRegular is wrapped by reads of devices, sockets and pipes.
var ErrNotRegular = errors.New("not a regular file")

// OverlayFunc reports the content of an open editor buffer for an absolute
// path; ok is false when the file is not open.
type OverlayFunc func(abs string) (content []byte, version int32, ok bool)

// DiskView is a FileView that reads files from disk, or from an overlay
// when one is set and has the file (the language server plugs its open
// documents in there). Reads above MaxFileSize fail with ErrFileTooLarge
// without reading the file. Safe for concurrent use; the zero value reads
// from disk only.
type DiskView struct {
	Overlay OverlayFunc
}

// Read implements FileView.
func (v *DiskView) Read(abs string) ([]byte, int32, error) {
	if v.Overlay != nil {
		if content, version, ok := v.Overlay(abs); ok {
			if len(content) > MaxFileSize {
				return nil, 0, fmt.Errorf("read %s: %w (%d bytes, limit %d)", abs, ErrFileTooLarge, len(content), MaxFileSize)
			}
			return content, version, nil
		}
	}
	content, err := readFileCapped(abs, MaxFileSize)
	if err != nil {
		return nil, 0, err
	}
	return content, DiskVersion, nil
}

// readFileCapped reads a regular file of at most limit bytes. The size is
// checked on the open file, and the read is bounded too, so a file growing
// meanwhile cannot make it read more than limit+1 bytes.
func readFileCapped(abs string, limit int64) ([]byte, error) {
	// Stat before opening: opening a FIFO would block.
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("read %s: %w", abs, err)
	} else if fi.IsDir() {
		return nil, fmt.Errorf("read %s: %w", abs, ErrIsDirectory)
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: %w", abs, ErrNotRegular)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", abs, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", abs, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("read %s: %w", abs, ErrIsDirectory)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("read %s: %w (%d bytes, limit %d)", abs, ErrFileTooLarge, fi.Size(), limit)
	}
	content, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", abs, err)
	}
	if int64(len(content)) > limit {
		return nil, fmt.Errorf("read %s: %w (grew past %d bytes while reading)", abs, ErrFileTooLarge, limit)
	}
	return content, nil
}
