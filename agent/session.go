package agent

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/agent/provider"
)

// Session is one conversation. It holds what the model saw and what it
// cost, nothing else: no configuration, no keys. It is not safe for
// concurrent use; Agent.Run mutates it.
type Session struct {
	ID       string             `json:"id"`
	Created  time.Time          `json:"created"`
	Updated  time.Time          `json:"updated"`
	Title    string             `json:"title"`
	Model    string             `json:"model,omitempty"`
	Turns    int                `json:"turns"`
	Usage    provider.Usage     `json:"usage"`
	Messages []provider.Message `json:"messages"`
	// Compactions records each compaction of Messages, oldest first.
	Compactions []Compaction `json:"compactions,omitempty"`

	// tokens counts the prompt of the session's requests (not stored: a
	// resumed session recounts and recalibrates on its first call).
	tokens *tokenCounter
	// hooksStarted: the SessionStart hooks ran for this session in this
	// process (not stored: a resumed session starts again, as "resume").
	hooksStarted bool
}

// counter returns the session's token counter for model.
func (s *Session) counter(model string) *tokenCounter {
	if s.tokens == nil || s.tokens.model != model {
		s.tokens = newTokenCounter(model)
	}
	return s.tokens
}

// NewSession starts an empty session with a fresh ID.
func NewSession() *Session {
	now := time.Now().UTC()
	return &Session{ID: NewID(now), Created: now, Updated: now}
}

// NewID returns a session ID that sorts by creation time: UTC date and
// time to the millisecond, then random hex so IDs made in the same
// millisecond differ ("20250102-150405.123-9f2c1a").
func NewID(now time.Time) string {
	var r [3]byte
	rand.Read(r[:]) // never fails (crypto/rand panics instead)
	return now.UTC().Format("20060102-150405.000") + "-" + hex.EncodeToString(r[:])
}

// titleLen caps a title, in runes.
const titleLen = 72

// addUserText appends a user message. When the history already ends with
// a user message (the last turn stopped before the model answered, or
// after a tool round), the text joins it, so roles keep alternating.
func (s *Session) addUserText(text string) { s.addUser(text, nil) }

// addUser is addUserText with images after the text (an empty text with
// images adds only the images).
func (s *Session) addUser(text string, images []provider.Block) {
	if s.Title == "" {
		title := text
		if title == "" && len(images) > 0 {
			title = imageNote(images[0])
		}
		s.Title = Title(title)
	}
	var bs []provider.Block
	if text != "" || len(images) == 0 {
		bs = append(bs, provider.Block{Kind: provider.BlockText, Text: text})
	}
	bs = append(bs, images...)
	if n := len(s.Messages); n > 0 && s.Messages[n-1].Role == provider.RoleUser {
		s.Messages[n-1].Blocks = append(s.Messages[n-1].Blocks, bs...)
		return
	}
	s.Messages = append(s.Messages, provider.Message{Role: provider.RoleUser, Blocks: bs})
}

// Title is the first non-blank line of text with runs of white space
// collapsed, shortened to a title (a session's, a progress item's).
func Title(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > titleLen {
			r := []rune(line)
			line = strings.TrimSpace(string(r[:titleLen-1])) + "…"
		}
		return line
	}
	return "(empty)"
}

// LastText returns the text of the last assistant message, for showing a
// resumed session.
func (s *Session) LastText() string {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Role == provider.RoleAssistant {
			return textOf(s.Messages[i])
		}
	}
	return ""
}
