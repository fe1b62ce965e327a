package syntax

import (
	"strings"
)

// LocalsCacheBytes bounds the source of the buffers whose trees index/locals
// keeps, within the tree cache's own bound: only the buffers being edited
// matter to it, and a C tree takes about a hundred times its source
// (zstd's 40 files, all opened, took the server from 0.96 to 1.7 GB
// without this bound). A variable so that a test can lower it.
var LocalsCacheBytes = 2 << 20

// EvictLocals drops the least recently used trees of index/locals (keys
// "locals:...") beyond LocalsCacheBytes, keeping keep. Precondition: the caller holds c.
func (c *Cache) EvictLocals(keep string) {
	var keys []string
	n := 0
	for _, k := range c.order {
		if strings.HasPrefix(k, "locals:") {
			keys = append(keys, k)
			n += len(c.files[k].F.Src)
		}
	}
	for _, k := range keys {
		if n <= LocalsCacheBytes || k == keep {
			break
		}
		n -= len(c.files[k].F.Src)
		c.drop(k, c.files[k])
	}
}
