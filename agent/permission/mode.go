package permission

import (
	"fmt"
	"strings"
)

// Mode is the default treatment of calls that no rule covers.
type Mode string

const (
	// ModeDefault allows reads and asks before shell commands, edits, git
	// writes and network access.
	ModeDefault Mode = "default"
	// ModeAcceptEdits also allows edits; shell, network and git writes are
	// still asked.
	ModeAcceptEdits Mode = "acceptEdits"
	// ModePlan is read-only: every call that is not a read is denied, even
	// when an allow rule covers it.
	ModePlan Mode = "plan"
	// ModeBypassPermissions allows every call that no deny or ask rule
	// covers. The shell tool still refuses its danger list.
	ModeBypassPermissions Mode = "bypassPermissions"
)

var modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypassPermissions}

// ParseMode reads a mode name, ignoring case; "" is ModeDefault.
func ParseMode(s string) (Mode, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return ModeDefault, nil
	}
	for _, m := range modes {
		if strings.EqualFold(s, string(m)) {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown permission mode %q (want default, acceptEdits, plan or bypassPermissions)", s)
}

// String returns the mode's name.
func (m Mode) String() string { return string(m) }
