package acp

import (
	"path"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/images"
	"github.com/parleyhq/parley/agent/provider"
)

// promptImages turns the prompt's image content blocks (base64 data and
// a media type, which parley advertises with PromptCapabilities.Image)
// into image blocks for the model, prepared to its API's limits. An image
// that cannot be read, or images for a model that takes none, make the
// prompt invalid with a message that says why, before the turn starts.
func (ss *session) promptImages(blocks []sdk.ContentBlock) ([]provider.Block, error) {
	var out []provider.Block
	lim := provider.ImageLimitsFor(ss.ws.Provider.Name())
	for _, b := range blocks {
		img := b.Image
		if img == nil {
			continue
		}
		if img.Data == "" {
			return nil, invalidParams("an image block without data (parley takes images inline, not by uri)")
		}
		name := ""
		if img.Uri != nil {
			name = path.Base(*img.Uri)
		}
		pb, err := images.FromBase64(name, img.Data, lim)
		if err != nil {
			return nil, invalidParams("%v", err)
		}
		out = append(out, pb)
	}
	if err := images.Check(ss.ws.Config.Model, ss.ws.Config.Vision, out); err != nil {
		return nil, invalidParams("%v", err)
	}
	return out, nil
}
