package agent

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/memory"
)

// RecalledMemory is one memory auto-recall put in front of the model, as
// an EventMemory shows it.
type RecalledMemory struct {
	ID      string  `json:"id"` // memory.Ref: 12, or u12 for a user memory
	Type    string  `json:"type"`
	Content string  `json:"content"`
	Score   float64 `json:"score"`
}

// autoRecall adds the memories relevant to the user's message (see
// memory.Set.AutoRecall for the threshold and the token bound) as a block
// of the user message, after the user's own text, and reports them with
// an EventMemory. The block stays in the history: it is what the model
// saw. A failed recall is reported and the turn goes on without it.
func (t *turn) autoRecall(message string) {
	if !t.a.AutoRecall || t.a.Env == nil || t.a.Env.Memory == nil {
		return
	}
	text, hits, err := t.a.Env.Memory.AutoRecall(message)
	if err != nil {
		t.emit(Event{Kind: EventMemory, Text: fmt.Sprintf("memory recall failed: %v", err)})
		return
	}
	if len(hits) == 0 {
		return
	}
	t.s.addUserText(text)
	e := Event{Kind: EventMemory}
	refs := make([]string, len(hits))
	for i, h := range hits {
		refs[i] = memory.Ref(h.Memory)
		e.Memories = append(e.Memories, RecalledMemory{ID: refs[i], Type: string(h.Type), Content: h.Content, Score: h.Score})
	}
	e.Text = fmt.Sprintf("recalled %d %s: %s", len(hits), plural(len(hits), "memory", "memories"), strings.Join(refs, ", "))
	t.emit(e)
}
