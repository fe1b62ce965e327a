package lsp

import "sync"

// pendingFiles maps paths of closed files to the content the agent applied
// to them (see editor.go): the editor holds it in a buffer, the disk does
// not. It holds at most max bytes of content (0: maxPending). Past that the
// least recently used content is dropped but its path is kept, marked
// dropped: the agent must not read the disk for a file whose buffer
// differs, so it is told to have the user save first. Marks cost only
// their path and last until the client reports the file. Safe for
// concurrent use; the zero value is ready.
type pendingFiles struct {
	mu      sync.Mutex
	max     int64
	lru     *byteLRU[string, pendingFile]
	dropped map[string]bool
}

// maxPending bounds the bytes of agent edits kept for closed files.
const maxPending = 64 << 20

type pendingFile struct {
	content []byte
	deleted bool
	// dropped: the content was evicted; what the buffer holds is unknown.
	dropped bool
}

func (p *pendingFiles) init() {
	if p.lru != nil {
		return
	}
	max := p.max
	if max == 0 {
		max = maxPending
	}
	p.lru = newByteLRU[string, pendingFile](max)
	p.dropped = map[string]bool{}
	p.lru.onEvict = func(abs string, _ pendingFile) { p.dropped[abs] = true }
}

// get returns what the agent left in abs's buffer; ok is false when the
// editor has reported the path since (or the agent never changed it).
func (p *pendingFiles) get(abs string) (f pendingFile, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	if p.dropped[abs] {
		return pendingFile{dropped: true}, true
	}
	return p.lru.get(abs)
}

func (p *pendingFiles) set(abs string, f pendingFile) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	delete(p.dropped, abs)
	if !p.lru.addIfFits(abs, f, int64(len(f.content)+len(abs))+64) {
		p.dropped[abs] = true
	}
}

// paths lists the pending paths, dropped ones included.
func (p *pendingFiles) paths() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	out := make([]string, 0, len(p.dropped))
	p.lru.each(func(abs string, _ pendingFile) { out = append(out, abs) })
	for abs := range p.dropped {
		out = append(out, abs)
	}
	return out
}

// forget drops abs: the client now says what the path holds.
func (p *pendingFiles) forget(abs string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	p.lru.remove(abs)
	delete(p.dropped, abs)
}
