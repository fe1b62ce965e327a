package agent

import (
	"strings"

	"github.com/tiktoken-go/tokenizer"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/tokcount"
)

// Token accounting. A request's prompt is counted with a real BPE
// tokenizer before it is sent (internal/tokcount: OpenAI models with their
// own vocabulary, every other model with o200k_base). No other vendor
// publishes its tokenizer, so for them the count is an estimate, which the
// provider's reported usage corrects: after each call the ratio of the
// reported prompt size to the count of that same prompt scales later
// counts. While the history only
// grows this is the reported size plus the scaled count of what was added
// since. The ratio is kept per model across sessions
// (tokens_calibration.go).

// Per-item overheads of the chat formats (role markers, separators, the
// tool-call wrapper), in tokens. OpenAI documents about 3 per message;
// tool calls and results carry their ids and names on top.
const (
	messageOverhead = 4
	blockOverhead   = 3
	toolOverhead    = 8
)

// Calibration bounds: a reported size further than this from the count is
// not a tokenizer difference (all vocabularies in use are within about
// 1.5x of o200k on code and prose) but a server reporting something else,
// such as Ollama counting only the prompt tokens it did not have cached.
const (
	minRatio = 0.5
	maxRatio = 2.0
)

// tokenCounter estimates the prompt size of a session's requests. It
// remembers each message's count, so a request costs only the counting
// of what changed since the last one. Not safe for concurrent use (a
// Session is not either).
type tokenCounter struct {
	model string
	codec tokenizer.Codec // nil: the tokenizer is unavailable, 4 bytes a token
	// ratio scales raw counts to the provider's reported sizes (0: no
	// report yet, counts are used as they are). seeded: it was started
	// from the saved calibration (Agent.calibrate).
	ratio  float64
	seeded bool
	// fixed caches the count of the system prompt and tool list.
	fixedKey   string
	fixedCount int
	msgs       []messageCount
}

// messageCount caches one message's count; key detects a message that
// changed in place (a user text joined to it, a result masked).
type messageCount struct {
	key    messageKey
	tokens int
}

type messageKey struct{ blocks, bytes int }

func keyOf(m provider.Message) messageKey {
	k := messageKey{blocks: len(m.Blocks)}
	for _, b := range m.Blocks {
		k.bytes += len(b.Text) + len(b.Input) + len(b.Redacted) + len(b.ToolName) + len(b.Data)
	}
	return k
}

func newTokenCounter(model string) *tokenCounter {
	return &tokenCounter{model: model, codec: tokcount.Codec(model)}
}

// count counts s (tokcount.Count: it never fails).
func (c *tokenCounter) count(s string) int { return tokcount.Count(c.codec, s) }

// raw counts a request's prompt without calibration.
func (c *tokenCounter) raw(system string, specs []provider.ToolSpec, msgs []provider.Message) int {
	return c.fixed(system, specs) + c.messages(msgs)
}

// estimate is the calibrated prompt size of a request.
func (c *tokenCounter) estimate(system string, specs []provider.ToolSpec, msgs []provider.Message) int {
	return c.scale(c.raw(system, specs, msgs))
}

// scale applies the calibration to a raw count.
func (c *tokenCounter) scale(raw int) int {
	if c.ratio == 0 {
		return raw
	}
	return int(float64(raw)*c.ratio + 0.5)
}

// observe calibrates from a call whose prompt counted raw tokens and for
// which the provider reported u. Calls without a reported input size
// (servers that send no usage) change nothing.
func (c *tokenCounter) observe(raw int, u provider.Usage) {
	reported := promptTokens(u)
	if reported <= 0 || raw <= 0 {
		return
	}
	c.ratio = min(max(float64(reported)/float64(raw), minRatio), maxRatio)
}

// promptTokens is the prompt size a provider reported: uncached, cached
// and cache-written input together (see provider.Config).
func promptTokens(u provider.Usage) int {
	return u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens
}

func (c *tokenCounter) fixed(system string, specs []provider.ToolSpec) int {
	var key strings.Builder
	key.WriteString(system)
	for _, s := range specs {
		key.WriteString(s.Name)
		key.Write(s.InputSchema)
	}
	if k := key.String(); k == c.fixedKey && c.fixedKey != "" {
		return c.fixedCount
	}
	n := 0
	if system != "" {
		n += messageOverhead + c.count(system)
	}
	for _, s := range specs {
		n += toolOverhead + c.count(s.Name) + c.count(s.Description) + c.count(string(s.InputSchema))
	}
	c.fixedKey, c.fixedCount = key.String(), n
	return n
}

func (c *tokenCounter) messages(msgs []provider.Message) int {
	if len(c.msgs) > len(msgs) {
		c.msgs = c.msgs[:len(msgs)]
	}
	total := 0
	for i, m := range msgs {
		k := keyOf(m)
		if i < len(c.msgs) && c.msgs[i].key == k {
			total += c.msgs[i].tokens
			continue
		}
		n := c.message(m)
		if i < len(c.msgs) {
			c.msgs[i] = messageCount{key: k, tokens: n}
		} else {
			c.msgs = append(c.msgs, messageCount{key: k, tokens: n})
		}
		total += n
	}
	return total
}

// reset forgets the per-message counts, for a history rewritten in place
// (compaction), where a changed message could keep its cache key.
func (c *tokenCounter) reset() { c.msgs = nil }

func (c *tokenCounter) message(m provider.Message) int {
	n := messageOverhead
	for _, b := range m.Blocks {
		n += c.block(b)
	}
	return n
}

func (c *tokenCounter) block(b provider.Block) int {
	switch b.Kind {
	case provider.BlockToolUse:
		return blockOverhead + c.count(b.ToolName) + c.count(string(b.Input))
	case provider.BlockToolResult:
		return blockOverhead + c.count(b.Text)
	case provider.BlockImage:
		// Never the base64 text: the vendor's formula for the pixels.
		return blockOverhead + provider.ImageTokens(c.model, b.Width, b.Height)
	case provider.BlockThinking:
		if b.Redacted != "" {
			// Encrypted; its size in tokens is unknowable, bytes/4 is close
			// to what the API reports.
			return (len(b.Redacted) + 3) / 4
		}
		return c.count(b.Text)
	default:
		return c.count(b.Text)
	}
}
