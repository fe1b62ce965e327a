package prompts

import (
	"context"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/mentions"
)

// maxRefs bounds the files one message attaches.
const maxRefs = 20

// attach reads the files text references (mentions.Refs: "@path" at the
// start of a word) and appends each once.
func (x *Expansion) attach(ctx context.Context, read Reader, text string) {
	if read == nil {
		return
	}
	if x.seen == nil {
		x.seen = map[string]bool{}
	}
	for _, tok := range mentions.Refs(text) {
		if x.seen["@"+tok] || len(x.Files) >= maxRefs {
			continue
		}
		x.seen["@"+tok] = true
		shown, body, err := readRef(ctx, read, tok)
		if err != nil {
			// A bare word (@Override, @team) is not a path: say nothing.
			if strings.ContainsAny(tok, "/.") {
				x.Notes = append(x.Notes, fmt.Sprintf("@%s not attached: %v", tok, err))
			}
			continue
		}
		if x.seen[shown] {
			continue
		}
		x.seen[shown] = true
		x.Files = append(x.Files, shown)
		x.attachments += mentions.FileBlock(shown, body)
	}
}

// readRef reads tok, or tok without trailing punctuation ("see @a.go.").
func readRef(ctx context.Context, read Reader, tok string) (string, string, error) {
	shown, body, err := read(ctx, tok)
	if err == nil {
		return shown, body, nil
	}
	if t := strings.TrimRight(tok, ".,:;!?"); t != tok && t != "" {
		if shown, body, err2 := read(ctx, t); err2 == nil {
			return shown, body, nil
		}
	}
	return "", "", err
}
