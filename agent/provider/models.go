package provider

import "strings"

// defaultContextWindow is seed 002's context_window default, used when a
// model is unknown and no fallback was configured.
const defaultContextWindow = 8192

// contextWindows maps model-name prefixes to context windows in tokens, as
// documented by each vendor. The longest matching prefix wins, so dated
// snapshots ("claude-3-5-sonnet-20241022") and local tags ("qwen2.5:7b")
// resolve to their family.
var contextWindows = map[string]int{
	// Anthropic: every Claude 3.x and 4.x model has a 200k window (the 1M
	// window of some models is an opt-in beta).
	"claude-":        200_000,
	"claude-2":       100_000,
	"claude-2.1":     200_000,
	"claude-instant": 100_000,

	// OpenAI.
	"gpt-3.5-turbo": 16_385,
	"gpt-4":         8_192,
	"gpt-4-32k":     32_768,
	"gpt-4-turbo":   128_000,
	"gpt-4-1106":    128_000,
	"gpt-4-0125":    128_000,
	"gpt-4o":        128_000,
	"chatgpt-4o":    128_000,
	"gpt-4.1":       1_047_576,
	"gpt-4.5":       128_000,
	"gpt-5":         400_000,
	"gpt-5-chat":    128_000,
	"o1":            200_000,
	"o1-mini":       128_000,
	"o1-preview":    128_000,
	"o3":            200_000,
	"o3-mini":       200_000,
	"o4-mini":       200_000,
	"codex-mini":    200_000,
	"gpt-oss":       131_072,

	// Google Gemini: every 2.x and 3 model takes 1,048,576 input tokens;
	// 1.5 Pro took twice that.
	"gemini-":        1_048_576,
	"gemini-1.5-pro": 2_097_152,
	"gemini-1.0-pro": 32_760,
	"gemini-pro":     32_760,

	// DeepSeek (API models and the open weights served locally).
	"deepseek":        128_000,
	"deepseek-coder:": 16_384, // DeepSeek-Coder v1 as packaged by Ollama
	"deepseek-r1":     128_000,
	"deepseek-v3":     128_000,

	// Qwen (DashScope API names and open weights).
	"qwen":          32_768,
	"qwen-max":      32_768,
	"qwen-plus":     131_072,
	"qwen-turbo":    1_000_000,
	"qwen-long":     10_000_000,
	"qwen2":         32_768,
	"qwen2.5":       32_768,
	"qwen2.5-turbo": 1_000_000,
	"qwen3":         32_768,
	"qwen3-coder":   262_144,
	"qwq":           32_768,

	// Other open models commonly served by Ollama, LM Studio, llama.cpp.
	"llama3.1":      131_072,
	"llama3.2":      131_072,
	"llama3.3":      131_072,
	"codellama":     16_384,
	"mistral-large": 131_072,
	"codestral":     32_768,
	"gemma3":        131_072,
}

// maxOutputs maps model-name prefixes to the most tokens a response may
// have (the highest max_tokens the API accepts), as documented by each
// vendor; matched like contextWindows.
var maxOutputs = map[string]int{
	// Anthropic.
	"claude-3-":         4_096,
	"claude-3-5-":       8_192,
	"claude-3-7-sonnet": 64_000,
	"claude-opus-4":     32_000,
	"claude-opus-4-5":   64_000,
	"claude-opus-4-6":   128_000,
	"claude-sonnet-4":   64_000,
	"claude-sonnet-4-6": 128_000,
	"claude-haiku-4":    64_000,

	// OpenAI.
	"gpt-3.5-turbo": 4_096,
	"gpt-4":         8_192,
	"gpt-4-turbo":   4_096,
	"gpt-4-1106":    4_096,
	"gpt-4-0125":    4_096,
	"gpt-4o":        16_384,
	"chatgpt-4o":    16_384,
	"gpt-4.1":       32_768,
	"gpt-5":         128_000,
	"o1":            100_000,
	"o1-mini":       65_536,
	"o3":            100_000,
	"o4-mini":       100_000,

	// Google Gemini.
	"gemini-1.5":        8_192,
	"gemini-2.0":        8_192,
	"gemini-2.5":        65_536,
	"gemini-3":          65_536,
	"gemini-flash":      65_536, // gemini-flash-latest, gemini-flash-lite-latest
	"gemini-pro-latest": 65_536,

	// DeepSeek's API.
	"deepseek-chat": 8_192,
}

// ContextWindow returns the context window of model in tokens. Vendor
// prefixes such as "openai/" or "anthropic/" (OpenRouter) are ignored and
// matching is case-insensitive. Unknown models return fallback (the
// configured context_window), or 8192 when fallback is not positive.
func ContextWindow(model string, fallback int) int {
	if w, ok := lookup(contextWindows, model); ok {
		return w
	}
	if fallback > 0 {
		return fallback
	}
	return defaultContextWindow
}

// MaxOutputTokens returns the most tokens model may answer with, 0 when
// it is unknown (matched like ContextWindow).
func MaxOutputTokens(model string) int {
	n, _ := lookup(maxOutputs, model)
	return n
}

// lookup finds the longest prefix of model's name in table.
func lookup[V any](table map[string]V, model string) (V, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	var v V
	best := -1
	for prefix, n := range table {
		if len(prefix) > best && strings.HasPrefix(m, prefix) {
			best, v = len(prefix), n
		}
	}
	return v, best >= 0
}
