package index

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// ScanReferenceNames calls fn with each indexed file's ID and the distinct
// names it references (its 'n' record), in file-ID order: the raw material
// of a reference graph between files (index/repomap). names and its
// elements alias scan buffers and are valid only during the call.
func (s *Store) ScanReferenceNames(fn func(id uint32, names [][]byte) error) error {
	var names [][]byte
	err := s.scan([]byte{prefixNames}, func(k, v []byte) error {
		if len(k) != 5 {
			return nil
		}
		id := binary.BigEndian.Uint32(k[1:])
		d := decoder{b: v}
		n := d.count(1)
		names = slices.Grow(names[:0], n)
		for ; n > 0 && !d.bad; n-- {
			l := d.uvarint()
			if l > uint64(len(d.b)) {
				d.fail()
				break
			}
			names, d.b = append(names, d.b[:l]), d.b[l:]
		}
		if d.bad {
			return nil // a malformed record names nothing; queries skip it too
		}
		return fn(id, names)
	})
	if err != nil {
		return fmt.Errorf("scan reference names: %w", err)
	}
	return nil
}

// ScanDeclaredNames calls fn for each declaration of the symbol name index
// ('s' records): its name as spelled and the declaring file's ID. name
// aliases a scan buffer, valid only during the call.
func (s *Store) ScanDeclaredNames(fn func(name []byte, id uint32) error) error {
	err := s.scanSymNames(func(name, _ []byte, id, _ uint32, _ symRef) error {
		return fn(name, id)
	})
	if err != nil {
		return fmt.Errorf("scan declared names: %w", err)
	}
	return nil
}

// scanSymNames calls fn for each well-formed 's' record: the name as
// spelled, lower-cased (the key's), the declaring file's ID, the symbol's
// index in that file and the record. name and lower alias scan buffers.
func (s *Store) scanSymNames(fn func(name, lower []byte, id, idx uint32, ref symRef) error) error {
	return s.scan([]byte{prefixSymName}, func(k, v []byte) error {
		lower, id, idx, ok := parseSymNameKey(k)
		if !ok {
			return nil
		}
		ref, ok := decodeSymRef(v)
		if !ok {
			return nil
		}
		name := lower
		if ref.Spelled != nil {
			name = ref.Spelled
		}
		return fn(name, lower, id, idx, ref)
	})
}

// FileNames returns the distinct names the file at path references (its
// 'n' record) and the names it declares, one per symbol (its 'y' record):
// what the two scans above give for one file.
func (s *Store) FileNames(path string) (refs, decls []string, err error) {
	h, ok := s.Header(path)
	if !ok {
		return nil, nil, fmt.Errorf("names of %s: %w", path, ErrNotIndexed)
	}
	v, err := s.get(idKey(prefixNames, h.ID))
	if err != nil {
		return nil, nil, fmt.Errorf("names of %s: %w", path, err)
	}
	if v != nil {
		if refs, err = decodeNames(v); err != nil {
			return nil, nil, fmt.Errorf("names of %s: %w", path, err)
		}
	}
	syms, err := s.Symbols(path)
	if err != nil {
		return nil, nil, err
	}
	for _, sy := range syms {
		decls = append(decls, sy.Name)
	}
	return refs, decls, nil
}
