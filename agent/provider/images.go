package provider

import (
	"fmt"
	"slices"
	"strings"
)

// Images. A BlockImage block in a user message carries the image itself
// (base64, as every API takes it inline); each provider encodes it in its
// wire format: Anthropic's image block with a base64 source, an OpenAI
// image_url content part holding a data: URL, Gemini's inlineData part.
// Whether a model takes images at all is SupportsImages; how large an
// image may be for an API is ImageLimitsFor; what it costs is ImageTokens.
// Front ends prepare images to the limits (agent/images) before a turn.

// ImageLimits are what one API accepts of an image, as parley sends it.
type ImageLimits struct {
	// LongEdge is the longest side, in pixels, parley sends: larger images
	// are downscaled to it (the API would downscale them anyway, after
	// charging for the upload).
	LongEdge int
	// MaxBase64 caps one image's base64 data, in bytes.
	MaxBase64 int
	// Formats are the media types the API takes; others are re-encoded.
	Formats []string
}

// Accepts reports whether the API takes images of mediaType as they are.
func (l ImageLimits) Accepts(mediaType string) bool { return slices.Contains(l.Formats, mediaType) }

// The APIs' documented limits, and the long edge each is best sent at.
var (
	// Anthropic: at most 8000x8000 px and 5 MB an image; images with a long
	// edge above 1568 px are resized by the API, so sending more only costs
	// upload time. JPEG, PNG, GIF and WebP.
	anthropicImages = ImageLimits{LongEdge: 1568, MaxBase64: 5 << 20, Formats: []string{"image/jpeg", "image/png", "image/gif", "image/webp"}}
	// OpenAI: high detail fits the image in 2048x2048 first; 20 MB an image
	// (50 MB a request). PNG, JPEG, WebP and non-animated GIF. Compatible
	// servers (Ollama, LM Studio, vLLM) decode the same data URLs.
	openaiImages = ImageLimits{LongEdge: 2048, MaxBase64: 20 << 20, Formats: []string{"image/jpeg", "image/png", "image/gif", "image/webp"}}
	// Gemini: inline data counts against a 20 MB request; PNG, JPEG, WebP,
	// HEIC and HEIF (no GIF). Larger images are tiled at 768 px.
	geminiImages = ImageLimits{LongEdge: 2048, MaxBase64: 7 << 20, Formats: []string{"image/jpeg", "image/png", "image/webp"}}
)

// ImageLimitsFor returns the limits of the API a provider name speaks
// ("anthropic", "openai", "openai-compatible", "gemini"); unknown names
// get the strictest (Anthropic's) so an image fits anywhere.
func ImageLimitsFor(providerName string) ImageLimits {
	switch providerName {
	case NameOpenAI, NameOpenAICompatible:
		return openaiImages
	case NameGemini:
		return geminiImages
	}
	return anthropicImages
}

// visionModels maps model-name prefixes to whether the model takes image
// input, as each vendor documents it; matched like contextWindows. A model
// no prefix matches is taken to be text-only.
var visionModels = map[string]bool{
	// Anthropic: every Claude 3 and later model reads images.
	"claude-":        true,
	"claude-2":       false,
	"claude-instant": false,

	// OpenAI: GPT-4 Turbo and 4o on; the small reasoning models of the
	// o1/o3 generation are text-only.
	"gpt-4":             false,
	"gpt-4-turbo":       true,
	"gpt-4-vision":      true,
	"gpt-4o":            true,
	"chatgpt-4o":        true,
	"gpt-4.1":           true,
	"gpt-4.5":           true,
	"gpt-5":             true,
	"o1":                true,
	"o1-mini":           false,
	"o1-preview":        false,
	"o3":                true,
	"o3-mini":           false,
	"o4-mini":           true,
	"codex-mini":        true,
	"gpt-3.5":           false,
	"gpt-oss":           false,
	"gemini-":           true, // 1.5, 2.x, 3
	"gemini-1.0-pro":    false,
	"gemini-pro":        false, // 1.0
	"gemini-pro-vision": true,
	"gemini-pro-latest": true,

	// Open-weight vision models as Ollama, LM Studio and llama.cpp name them.
	"llava":             true,
	"bakllava":          true,
	"llama3.2-vision":   true,
	"llama4":            true,
	"qwen2.5vl":         true,
	"qwen2.5-vl":        true,
	"qwen2-vl":          true,
	"qwen-vl":           true,
	"qwen3-vl":          true,
	"gemma3":            true,
	"minicpm-v":         true,
	"moondream":         true,
	"pixtral":           true,
	"mistral-small3.1":  true,
	"mistral-small3.2":  true,
	"granite3.2-vision": true,
}

// SupportsImages reports whether model takes image input. overrides (the
// configuration's "vision" section: model-name prefix to true or false)
// win over the table, longest prefix first; names are matched like
// ContextWindow's.
func SupportsImages(model string, overrides map[string]bool) bool {
	if len(overrides) > 0 {
		lower := make(map[string]bool, len(overrides))
		for k, v := range overrides {
			lower[strings.ToLower(k)] = v
		}
		if v, ok := lookup(lower, model); ok {
			return v
		}
	}
	v, _ := lookup(visionModels, model)
	return v
}

// NoVisionError refuses images for a model that does not take them,
// before anything is sent.
type NoVisionError struct{ Model string }

func (e *NoVisionError) Error() string {
	return fmt.Sprintf("model %s does not accept images; pick a vision model with --model or /model (\"model\" in the config), "+
		"or set \"vision\": {%q: true} in the config if it does", e.Model, e.Model)
}

// ImageTokens estimates what an image of w x h pixels costs model in
// input tokens, by its vendor's published formula: Claude about w*h/750
// (at most about 1600, the API's own downscale), Gemini 258 for an image
// within 384 px and 258 per 768 px tile beyond, and OpenAI's high detail
// (fit in 2048x2048, short side to 768, 170 per 512 px tile plus 85) for
// every other model.
func ImageTokens(model string, w, h int) int {
	if w <= 0 || h <= 0 {
		return 0
	}
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	switch {
	case strings.HasPrefix(m, "claude"):
		return min((w*h+749)/750, 1600)
	case strings.HasPrefix(m, "gemini"):
		if w <= 384 && h <= 384 {
			return 258
		}
		return ceilDiv(w, 768) * ceilDiv(h, 768) * 258
	}
	fw, fh := float64(w), float64(h)
	if s := 2048 / max(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	if s := 768 / min(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	tiles := ceilDiv(int(fw+0.5), 512) * ceilDiv(int(fh+0.5), 512)
	return 85 + 170*tiles
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// dataURL is an image block as an OpenAI image_url.
func dataURL(b Block) string { return "data:" + b.MediaType + ";base64," + b.Data }
