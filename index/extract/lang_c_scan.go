package extract

import "bytes"

// CMasks reports whether cMask changes src, for index/extract/cscan,
// which declines such files rather than replicate the masked parse.
func CMasks(src []byte) bool {
	if len(src) == 0 {
		return false
	}
	m := cMask(src)
	return &m[0] != &src[0] && !bytes.Equal(m, src)
}
