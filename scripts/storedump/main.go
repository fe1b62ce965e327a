// Command storedump prints a digest of an index store, so two builds'
// stores of the same tree can be compared key for key (a refactoring that
// must leave what is stored unchanged is checked this way).
//
//	go run ./scripts/storedump [-keys] STORE_DIR
//
// STORE_DIR is the index store directory (the one holding "pebble/") or the
// Pebble directory itself. The default output is one line per record kind
// (the key's prefix byte): the number of records and an xxhash64 of every
// key and value in order, then a total line. With -keys it prints one line
// per record instead, the key quoted and the value's hash, for diffing two
// stores that differ. The store is opened read-only; it must not be open
// in another process.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"
	"github.com/cockroachdb/pebble/v2"
)

func main() {
	keys := flag.Bool("keys", false, "print one line per record (quoted key, value hash)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: storedump [-keys] STORE_DIR")
		os.Exit(2)
	}
	if err := dump(os.Stdout, flag.Arg(0), *keys); err != nil {
		fmt.Fprintln(os.Stderr, "storedump:", err)
		os.Exit(1)
	}
}

// kindDigest accumulates one record kind's count and hash.
type kindDigest struct {
	n int
	h *xxhash.Digest
}

func dump(w io.Writer, dir string, perKey bool) error {
	if _, err := os.Stat(filepath.Join(dir, "pebble")); err == nil {
		dir = filepath.Join(dir, "pebble")
	}
	db, err := pebble.Open(dir, &pebble.Options{ReadOnly: true, Logger: quietLogger{}})
	if err != nil {
		return err
	}
	defer db.Close()
	it, err := db.NewIter(nil)
	if err != nil {
		return err
	}
	var (
		kinds [256]*kindDigest
		total = xxhash.New()
		count int
		lenb  [8]byte
	)
	// Each key and value is hashed with its length first, so two
	// different sequences of records cannot hash alike by shifting bytes.
	put := func(h *xxhash.Digest, b []byte) {
		n := len(b)
		for i := range lenb {
			lenb[i] = byte(n >> (8 * i))
		}
		h.Write(lenb[:])
		h.Write(b)
	}
	for it.First(); it.Valid(); it.Next() {
		k, v := it.Key(), it.Value()
		if perKey {
			fmt.Fprintf(w, "%q %016x\n", k, xxhash.Sum64(v))
		}
		d := kinds[k[0]]
		if d == nil {
			d = &kindDigest{h: xxhash.New()}
			kinds[k[0]] = d
		}
		d.n++
		count++
		for _, h := range []*xxhash.Digest{d.h, total} {
			put(h, k)
			put(h, v)
		}
	}
	if err := it.Error(); err != nil {
		it.Close()
		return err
	}
	if err := it.Close(); err != nil {
		return err
	}
	if perKey {
		return nil
	}
	for b, d := range kinds {
		if d != nil {
			fmt.Fprintf(w, "%q\t%d\t%016x\n", string(rune(b)), d.n, d.h.Sum64())
		}
	}
	fmt.Fprintf(w, "total\t%d\t%016x\n", count, total.Sum64())
	return nil
}

// quietLogger drops Pebble's informational messages (a read-only open
// reports the WAL it replays), which would mix with the digest.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}
