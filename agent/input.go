package agent

import (
	"fmt"

	"github.com/parleyhq/parley/agent/provider"
)

// Input is what the user sends to start a turn: text, and images
// (provider.BlockImage blocks, already prepared to the API's limits by
// agent/images) that go into the same user message after the text and
// are stored with the session.
type Input struct {
	Text   string
	Images []provider.Block
}

// acceptsImages reports whether the agent's model takes images.
func (a *Agent) acceptsImages() bool { return provider.SupportsImages(a.Model, a.Vision) }

// checkImages refuses images for a model without vision, and blocks that
// are not images.
func (a *Agent) checkImages(imgs []provider.Block) error {
	for _, b := range imgs {
		if b.Kind != provider.BlockImage || b.Data == "" || b.MediaType == "" {
			return fmt.Errorf("agent: an attached image has no data")
		}
	}
	if len(imgs) > 0 && !a.acceptsImages() {
		return &provider.NoVisionError{Model: a.Model}
	}
	return nil
}

// visible is the history as the model is sent it: images a model without
// vision would refuse (the session switched models after they were
// attached) become a line of text saying what was there.
func (a *Agent) visible(msgs []provider.Message) []provider.Message {
	if a.acceptsImages() || !hasImages(msgs) {
		return msgs
	}
	out := make([]provider.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		if !hasImages(msgs[i : i+1]) {
			continue
		}
		out[i].Blocks = make([]provider.Block, len(m.Blocks))
		for j, b := range m.Blocks {
			if b.Kind == provider.BlockImage {
				b = provider.Block{Kind: provider.BlockText, Text: imageNote(b) + " (not shown: " + a.Model + " does not take images)"}
			}
			out[i].Blocks[j] = b
		}
	}
	return out
}

func hasImages(msgs []provider.Message) bool {
	for _, m := range msgs {
		for _, b := range m.Blocks {
			if b.Kind == provider.BlockImage {
				return true
			}
		}
	}
	return false
}

// imageNote stands for an image in text: transcripts for the summariser,
// models without vision. "[image shot.png, 1568x1176]".
func imageNote(b provider.Block) string {
	name := b.Name
	if name == "" {
		name = "attached"
	}
	return fmt.Sprintf("[image %s, %dx%d]", name, b.Width, b.Height)
}
