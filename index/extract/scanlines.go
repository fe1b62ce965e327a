package extract

import "bytes"

// What the tree-sitter walker and the hand-written scanners share to
// turn offsets into positions and bytes into names.

// LineStarts appends the byte offset of every line start of src to out:
// 0, then the offset after each "\n".
func LineStarts(src []byte, out []uint32) []uint32 {
	out = append(out, 0)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return out
		}
		off += i + 1
		out = append(out, uint32(off))
	}
}

// PosOf is the position of byte offset off, given the line starts of
// its file (LineStarts).
func PosOf(lines []uint32, off uint32) Pos {
	lo, hi := 0, len(lines)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Pos{Line: uint32(lo), Col: off - lines[lo]}
}

// Names interns a file's names: the records share one string per
// distinct name, allocated once.
type Names map[string]string

// Intern returns the string of name b, allocating it on its first use.
func (n Names) Intern(b []byte) string {
	if s, ok := n[string(b)]; ok {
		return s
	}
	s := string(b)
	n[s] = s
	return s
}
