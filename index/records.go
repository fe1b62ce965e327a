package index

import (
	"github.com/parleyhq/parley/index/extract"
)

// Status says how far indexing got with a file.
type Status uint8

const (
	// StatusIndexed: parsed and extracted completely.
	StatusIndexed Status = iota
	// StatusPartial: extracted, but the extractor stopped early or met
	// syntax errors; Reason says which.
	StatusPartial
	// StatusText: a text file with no extractor; hashed and counted only.
	StatusText
	// StatusSkipped: listed with metadata but not read or not parsed
	// (binary, above the size cap, unreadable); Reason says why.
	StatusSkipped
)

var statusNames = [...]string{"indexed", "partial", "text", "skipped"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// FileHeader is the hot per-file record: everything the change check and
// the summary statistics need, without decoding imports or symbols.
type FileHeader struct {
	ID      uint32
	Path    string // slash-separated, relative to the root (the key)
	Size    int64
	ModTime int64 // UnixNano
	Hash    uint64
	Lines   uint32
	Status  Status
	Lang    string
	Symbols uint32
	Refs    uint32
	// ASCII is set when the content has no byte above 0x7f: byte columns
	// are then UTF-16 and UTF-32 columns too, and a language server can
	// answer positions without reading the file.
	ASCII bool
	// Build is a Go file's //go:build expression (extract.Result.Build):
	// which platforms see the file is asked of every candidate of a
	// references query, so it lives in the resident header.
	Build string
}

func encodeHeader(h *FileHeader) []byte {
	e := encoder{b: make([]byte, 0, 48)}
	e.uvarint(uint64(h.ID))
	e.varint(h.Size)
	e.varint(h.ModTime)
	e.u64(h.Hash)
	e.uvarint(uint64(h.Lines))
	e.byte(uint8(h.Status))
	e.str(h.Lang)
	e.uvarint(uint64(h.Symbols))
	e.uvarint(uint64(h.Refs))
	e.bool(h.ASCII)
	e.str(h.Build)
	return e.b
}

func decodeHeader(path string, b []byte) (FileHeader, error) {
	d := decoder{b: b}
	h := FileHeader{Path: path}
	h.ID = d.u32()
	h.Size = d.varint()
	h.ModTime = d.varint()
	h.Hash = d.u64()
	h.Lines = d.u32()
	h.Status = Status(d.byte())
	h.Lang = d.str()
	h.Symbols = d.u32()
	h.Refs = d.u32()
	h.ASCII = d.bool()
	h.Build = d.str()
	return h, d.err("file header " + path)
}

// FileDetail is the cold per-file record.
type FileDetail struct {
	Path    string
	Reason  string // why the file is partial or skipped
	Package string
	Imports []extract.Import
	Todos   []extract.Todo
	// Operands are the file's operand descriptors (extract.Result's),
	// which Occurrence.Operand indexes.
	Operands []string
}

func encodeDetail(f *FileDetail) []byte {
	var e encoder
	e.str(f.Path)
	e.str(f.Reason)
	e.str(f.Package)
	e.uvarint(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		e.str(im.Path)
		e.str(im.Name)
		e.uvarint(uint64(im.Line))
	}
	e.uvarint(uint64(len(f.Todos)))
	for _, t := range f.Todos {
		e.str(t.Tag)
		e.str(t.Text)
		e.uvarint(uint64(t.Line))
	}
	e.uvarint(uint64(len(f.Operands)))
	for _, o := range f.Operands {
		e.str(o)
	}
	return e.b
}

func decodeDetail(b []byte) (FileDetail, error) {
	d := decoder{b: b}
	var f FileDetail
	f.Path = d.str()
	f.Reason = d.str()
	f.Package = d.str()
	if n := d.count(3); n > 0 {
		f.Imports = make([]extract.Import, n)
		for i := range f.Imports {
			f.Imports[i] = extract.Import{Path: d.str(), Name: d.str(), Line: d.u32()}
		}
	}
	if n := d.count(3); n > 0 {
		f.Todos = make([]extract.Todo, n)
		for i := range f.Todos {
			f.Todos[i] = extract.Todo{Tag: d.str(), Text: d.str(), Line: d.u32()}
		}
	}
	if n := d.count(1); n > 0 {
		f.Operands = make([]string, n)
		for i := range f.Operands {
			f.Operands[i] = d.str()
		}
	}
	return f, d.err("file detail")
}

// encodeSymbols appends the record of syms to dst. It stores positions
// relative to the symbol's start line, which keeps most numbers to one
// byte.
func encodeSymbols(dst []byte, syms []extract.Symbol) []byte {
	e := encoder{b: dst}
	e.uvarint(uint64(len(syms)))
	for i := range syms {
		s := &syms[i]
		e.str(s.Name)
		e.byte(uint8(s.Kind))
		e.str(s.Container)
		e.varint(int64(s.Parent))
		r, sel := s.Range, s.Selection
		e.uvarint(uint64(r.Start.Line))
		e.uvarint(uint64(r.Start.Col))
		e.varint(int64(r.End.Line) - int64(r.Start.Line))
		e.uvarint(uint64(r.End.Col))
		e.varint(int64(sel.Start.Line) - int64(r.Start.Line))
		e.uvarint(uint64(sel.Start.Col))
		e.varint(int64(sel.End.Line) - int64(sel.Start.Line))
		e.uvarint(uint64(sel.End.Col))
		e.str(s.Signature)
		e.str(s.Doc)
		e.bool(s.Exported)
		e.uvarint(uint64(s.Complexity))
	}
	return e.b
}

func decodeSymbols(b []byte) ([]extract.Symbol, error) { return decodeSymbolsKeep(b, nil) }

// decodeSymbolsKeep decodes a 'y' record but allocates the strings of
// symbol i only when keep is nil or keep[i]: a search hit needs one
// symbol of a file that may hold thousands.
func decodeSymbolsKeep(b []byte, keep map[uint32]bool) ([]extract.Symbol, error) {
	d := decoder{b: b}
	n := d.count(12)
	syms := make([]extract.Symbol, n)
	for i := range syms {
		s := &syms[i]
		str := d.str
		if keep != nil && !keep[uint32(i)] {
			str = d.skipStr
		}
		s.Name = str()
		s.Kind = extract.SymbolKind(d.byte())
		s.Container = str()
		s.Parent = int32(d.varint())
		s.Range.Start.Line = d.u32()
		s.Range.Start.Col = d.u32()
		s.Range.End.Line = addLine(s.Range.Start.Line, d.varint())
		s.Range.End.Col = d.u32()
		s.Selection.Start.Line = addLine(s.Range.Start.Line, d.varint())
		s.Selection.Start.Col = d.u32()
		s.Selection.End.Line = addLine(s.Selection.Start.Line, d.varint())
		s.Selection.End.Col = d.u32()
		s.Signature = str()
		s.Doc = str()
		s.Exported = d.bool()
		s.Complexity = uint16(d.uvarint())
	}
	if err := d.err("symbols"); err != nil {
		return nil, err
	}
	return syms, nil
}

func addLine(base uint32, delta int64) uint32 {
	v := int64(base) + delta
	if v < 0 {
		return 0
	}
	return uint32(v)
}

// encodeNames appends the record of names to dst.
func encodeNames(dst []byte, names []string) []byte {
	e := encoder{b: dst}
	e.uvarint(uint64(len(names)))
	for _, n := range names {
		e.str(n)
	}
	return e.b
}

func decodeNames(b []byte) ([]string, error) {
	d := decoder{b: b}
	names := make([]string, d.count(1))
	for i := range names {
		names[i] = d.str()
	}
	return names, d.err("reference names")
}

// Occurrence is one stored reference position.
type Occurrence struct {
	Pos  extract.Pos
	Call bool
	// Sel, Import and Operand are extract.Ref's: a selector (x.F), the
	// import its qualifier names (1-based index into the file's imports),
	// and its operand's descriptor (1-based index into FileDetail.Operands).
	Sel     bool
	Import  uint16
	Operand uint32
}

const (
	occCall    = 1 << iota
	occSel     // the occurrence follows a "."
	occImport  // followed by uvarint(Import)
	occOperand // followed by uvarint(Operand)
	occFlags   = 4
)

// encodeOccurrences writes positions sorted by line as line deltas, with
// the flags in the low bits of the column and the import and operand
// indices after it when there are.
func encodeOccurrences(dst []byte, occ []Occurrence) []byte {
	e := encoder{b: dst}
	e.uvarint(uint64(len(occ)))
	var line uint32
	for _, o := range occ {
		e.uvarint(uint64(o.Pos.Line - line))
		line = o.Pos.Line
		c := uint64(o.Pos.Col) << occFlags
		if o.Call {
			c |= occCall
		}
		if o.Sel {
			c |= occSel
		}
		if o.Import > 0 {
			c |= occImport
		}
		if o.Operand > 0 {
			c |= occOperand
		}
		e.uvarint(c)
		if o.Import > 0 {
			e.uvarint(uint64(o.Import))
		}
		if o.Operand > 0 {
			e.uvarint(uint64(o.Operand))
		}
	}
	return e.b
}

func decodeOccurrences(b []byte) ([]Occurrence, error) {
	d := decoder{b: b}
	occ := make([]Occurrence, d.count(2))
	var line uint32
	for i := range occ {
		line += d.u32()
		c := d.uvarint()
		o := Occurrence{Pos: extract.Pos{Line: line, Col: uint32(c >> occFlags)}, Call: c&occCall != 0, Sel: c&occSel != 0}
		if c&occImport != 0 {
			o.Import = uint16(d.uvarint())
		}
		if c&occOperand != 0 {
			o.Operand = d.u32()
		}
		occ[i] = o
	}
	if err := d.err("occurrences"); err != nil {
		return nil, err
	}
	return occ, nil
}

// symRef is the value of a name-index ('s') record.
type symRef struct {
	Kind     extract.SymbolKind
	Exported bool
	Sel      extract.Pos // start of the name
	// Container aliases v like Spelled.
	Container []byte
	// Spelled is the original spelling when it differs from the key's
	// lower-cased name; nil otherwise.
	Spelled []byte
}

const symExported = 1

// encodeSymRef appends the value of s's name key to dst.
func encodeSymRef(dst []byte, s *extract.Symbol, lowerDiffers bool) []byte {
	e := encoder{b: dst}
	e.byte(uint8(s.Kind))
	var flags uint8
	if s.Exported {
		flags |= symExported
	}
	e.byte(flags)
	e.uvarint(uint64(s.Selection.Start.Line))
	e.uvarint(uint64(s.Selection.Start.Col))
	e.uvarint(uint64(len(s.Container)))
	e.b = append(e.b, s.Container...)
	if lowerDiffers {
		e.b = append(e.b, s.Name...)
	}
	return e.b
}

// decodeSymRef aliases v for Spelled; copy it before v goes away.
func decodeSymRef(v []byte) (symRef, bool) {
	d := decoder{b: v}
	r := symRef{Kind: extract.SymbolKind(d.byte())}
	r.Exported = d.byte()&symExported != 0
	r.Sel = extract.Pos{Line: d.u32(), Col: d.u32()}
	if n := d.uvarint(); n <= uint64(len(d.b)) {
		r.Container, d.b = d.b[:n], d.b[n:]
	} else {
		d.fail()
	}
	if d.bad {
		return symRef{}, false
	}
	if len(d.b) > 0 {
		r.Spelled = d.b
	}
	return r, true
}
