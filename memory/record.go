package memory

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Type is what kind of knowledge a memory holds.
type Type string

// The memory types. Recall can filter on them; Valid lists them for
// validation and for the tools' schema.
const (
	Fact           Type = "fact"
	Preference     Type = "preference"
	Decision       Type = "decision"
	CodePattern    Type = "code_pattern"
	ErrorSolution  Type = "error_solution"
	ProjectContext Type = "project_context"
	Instruction    Type = "instruction"
	Note           Type = "note"
)

// Types lists every valid Type.
var Types = []Type{Fact, Preference, Decision, CodePattern, ErrorSolution, ProjectContext, Instruction, Note}

// Scope says which store a memory belongs to.
type Scope string

const (
	// Workspace memories belong to one workspace (the default).
	Workspace Scope = "workspace"
	// User memories follow the user into every workspace.
	User Scope = "user"
)

// Anchor ties a memory to a file, or to a symbol in it.
type Anchor struct {
	Path   string `json:"path"`
	Symbol string `json:"symbol,omitempty"`
	// Hash is the content hash of the anchored file or symbol when the
	// memory was written; empty when it could not be computed.
	Hash string `json:"hash,omitempty"`
}

// Memory is one stored memory.
type Memory struct {
	ID         uint64    `json:"id"`
	Content    string    `json:"content"`
	Type       Type      `json:"type"`
	Importance int       `json:"importance"`
	Tags       []string  `json:"tags,omitempty"`
	Anchors    []Anchor  `json:"anchors,omitempty"`
	Scope      Scope     `json:"scope"`
	Created    time.Time `json:"created"`
	Used       time.Time `json:"used,omitzero"`
	Updated    time.Time `json:"updated,omitzero"`
}

// ErrInvalid is matched (errors.Is) by the errors that are the caller's
// mistake: a malformed memory or id, a scope this session has no store for.
var ErrInvalid = errors.New("invalid memory request")

// invalidf formats a caller's mistake; its text is the message alone.
func invalidf(format string, args ...any) error {
	return invalidError(fmt.Sprintf(format, args...))
}

type invalidError string

func (e invalidError) Error() string        { return string(e) }
func (e invalidError) Is(target error) bool { return target == ErrInvalid }

// DefaultImportance is given to a memory written without one.
const DefaultImportance = 5

// normalize fills defaults and checks a memory before it is stored. Its
// errors are the caller's (or the model's) mistakes, worded for them.
func (m *Memory) normalize() error {
	m.Content = strings.TrimSpace(m.Content)
	if m.Content == "" {
		return invalidf("memory content is empty")
	}
	if m.Type == "" {
		m.Type = Fact
	}
	if !slices.Contains(Types, m.Type) {
		return invalidf("unknown memory type %q (one of %s)", m.Type, typeList())
	}
	if m.Importance == 0 {
		m.Importance = DefaultImportance
	}
	if m.Importance < 1 || m.Importance > 10 {
		return invalidf("importance %d is outside 1-10", m.Importance)
	}
	if m.Scope == "" {
		m.Scope = Workspace
	}
	if m.Scope != Workspace && m.Scope != User {
		return invalidf("unknown scope %q (workspace or user)", m.Scope)
	}
	tags := m.Tags[:0:0]
	for _, t := range m.Tags {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	m.Tags = tags
	for _, a := range m.Anchors {
		if strings.TrimSpace(a.Path) == "" {
			return invalidf("an anchor has no path")
		}
	}
	return nil
}

func typeList() string {
	s := make([]string, len(Types))
	for i, t := range Types {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// ParseType returns the Type named s, or an error listing the valid ones.
func ParseType(s string) (Type, error) {
	t := Type(strings.TrimSpace(s))
	if !slices.Contains(Types, t) {
		return "", invalidf("unknown memory type %q (one of %s)", s, typeList())
	}
	return t, nil
}
