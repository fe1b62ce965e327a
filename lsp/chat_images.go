package lsp

import (
	"context"

	"github.com/parleyhq/parley/agent/images"
	"github.com/parleyhq/parley/agent/provider"
)

// ChatImage is an image of a parley/chat message: what the editor's chat
// view pasted or had dropped on it.
type ChatImage struct {
	MediaType string `json:"mediaType"`
	Data      string `json:"data"` // base64
	Name      string `json:"name,omitempty"`
}

// maxChatImages caps the images of one message.
const maxChatImages = 20

// chatImages prepares a message's images for the configured model: read
// by their content (the claimed media type is not trusted), downscaled to
// its API's limits, refused as invalid params (nothing runs) when one is
// no image or the model takes none.
func (s *Server) chatImages(in []ChatImage) ([]provider.Block, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if len(in) > maxChatImages {
		return nil, invalidParams("%s: %d images; at most %d go with one message", methodChat, len(in), maxChatImages)
	}
	b, err := s.agents.agentFor()
	if err != nil {
		return nil, requestFailed("the agent is not configured: %v", err)
	}
	lim := provider.ImageLimitsFor(b.provider.Name())
	out := make([]provider.Block, 0, len(in))
	for _, img := range in {
		pb, err := images.FromBase64(img.Name, img.Data, lim)
		if err != nil {
			return nil, invalidParams("%s: %v", methodChat, err)
		}
		out = append(out, pb)
	}
	if err := images.Check(b.cfg.Model, b.cfg.Vision, out); err != nil {
		return nil, invalidParams("%v", err)
	}
	return out, nil
}

// turnImagesKey carries a message's prepared images from parley/chat to
// the turn it starts, past the plumbing prompt commands share.
type turnImagesKey struct{}

func withTurnImages(ctx context.Context, imgs []provider.Block) context.Context {
	if len(imgs) == 0 {
		return ctx
	}
	return context.WithValue(ctx, turnImagesKey{}, imgs)
}

func turnImages(ctx context.Context) []provider.Block {
	imgs, _ := ctx.Value(turnImagesKey{}).([]provider.Block)
	return imgs
}
