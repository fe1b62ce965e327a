package lsp

import (
	"fmt"
	"strings"
	"testing"
)

// TestByteLRU runs sequences of operations on a 100-byte cache: "+k:n"
// adds k of n bytes ("?k:n" with addIfFits), "k" gets k, "-k" removes it,
// "!k" protects k from eviction and "!-k" ends that. It checks the keys left (most recently used first), the bytes
// they hold and the evictions, in order.
func TestByteLRU(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ops     string
		keys    string
		size    int64
		evicted string
	}{
		{"fits", "+a:40 +b:40", "b a", 80, ""},
		{"oldest goes", "+a:40 +b:40 +c:40", "c b", 80, "a"},
		{"a get makes it recent", "+a:40 +b:40 a +c:40", "c a", 80, "b"},
		{"as many as needed", "+a:30 +b:30 +c:30 +d:90", "d", 90, "a b c"},
		{"too large for the budget", "+a:30 +b:101", "b", 101, "a"},
		{"refused when too large", "+a:30 ?b:101 ?c:50", "c a", 80, ""},
		{"a refusal drops the old value", "+a:30 +b:30 ?a:101", "b", 30, ""},
		{"exactly the budget", "+a:30 +b:100", "b", 100, "a"},
		{"replacing resizes", "+a:30 +b:30 +a:60", "a b", 90, ""},
		{"replacing can evict", "+a:30 +b:30 +c:30 +a:60", "a c", 90, "b"},
		{"remove frees", "+a:60 -a +b:60", "b", 60, ""},
		{"protected stay", "!a !b +a:60 +b:30 +c:30", "c b a", 120, ""},
		{"the next unprotected goes", "!a +a:40 +b:40 +c:40", "c a", 80, "b"},
		{"protected go once free", "!a !b +a:60 +b:30 +c:30 !-a !-b +d:10", "d c b", 70, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newByteLRU[string, string](100)
			var evicted []string
			c.onEvict = func(k, _ string) { evicted = append(evicted, k) }
			kept := map[string]bool{}
			c.keep = func(k, _ string) bool { return kept[k] }
			for _, op := range strings.Fields(tc.ops) {
				switch {
				case strings.HasPrefix(op, "!-"):
					delete(kept, op[2:])
				case op[0] == '!':
					kept[op[1:]] = true
				case op[0] == '+' || op[0] == '?':
					k, n, _ := strings.Cut(op[1:], ":")
					var size int64
					fmt.Sscan(n, &size)
					if op[0] == '+' {
						c.add(k, "v"+k, size)
					} else if c.addIfFits(k, "v"+k, size) != (size <= c.max) {
						t.Fatalf("addIfFits %s", op)
					}
				case op[0] == '-':
					c.remove(op[1:])
				default:
					if v, ok := c.get(op); !ok || v != "v"+op {
						t.Fatalf("get %s: %q, %v", op, v, ok)
					}
				}
			}
			var keys []string
			c.each(func(k, v string) { keys = append(keys, k) })
			if got := strings.Join(keys, " "); got != tc.keys {
				t.Errorf("keys %q, want %q", got, tc.keys)
			}
			if c.size != tc.size {
				t.Errorf("size %d, want %d", c.size, tc.size)
			}
			if got := strings.Join(evicted, " "); got != tc.evicted {
				t.Errorf("evicted %q, want %q", got, tc.evicted)
			}
			for _, k := range keys {
				if _, ok := c.peek(k); !ok {
					t.Errorf("peek %s: missing", k)
				}
			}
			c.clear()
			if c.size != 0 || c.order.Len() != 0 || len(c.entries) != 0 {
				t.Errorf("after clear: size %d, %d entries", c.size, len(c.entries))
			}
		})
	}
}
