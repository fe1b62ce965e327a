package fim

import (
	"context"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/provider"
)

// chat fills the middle with a chat model (Anthropic Messages, OpenAI
// Chat Completions or a compatible server, Gemini generateContent) for users who have no FIM
// model: the file goes in the prompt with a marker between prefix and
// suffix, and the model is told to answer with the missing text only.
// The answer is cleaned of what chat models add anyway (code fences, the
// marker, the start of the current line, the start of the suffix).
//
// It talks through agent/provider, the project's client for both APIs,
// with retries off (a late completion is worth nothing); the provider
// streams, which costs nothing here and keeps one client for both APIs.
type chat struct {
	name, model string
	p           provider.Provider
	base        base // timeout only
}

// fillMarker stands for the cursor in the chat prompt.
const fillMarker = "<FILL_HERE>"

const chatSystem = `You are a code completion engine. The user sends a file with the marker ` + fillMarker + ` where the cursor is, and maybe snippets of other files for context.
Answer with exactly the text to insert at the marker so that the code before and after it reads correctly: no explanation, no code fences, no repetition of the code around the marker, and not the marker itself.
If nothing should be inserted, answer with nothing.`

const chatSingleLine = "\nComplete the current line only: your answer must not contain a line break."

func newChat(b base) (Model, error) {
	name := provider.NameAnthropic
	switch b.name {
	case ProviderOpenAIChat:
		name = provider.NameOpenAI
		if !needsKey(b.name, b.url) {
			name = provider.NameOpenAICompatible
		}
	case ProviderGeminiChat:
		name = provider.NameGemini
	}
	p, err := provider.New(provider.Config{
		Provider:   name,
		APIURL:     b.url,
		APIKey:     b.key,
		Model:      b.model,
		HTTPClient: b.client,
		MaxRetries: -1,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s", b.name, redact(err.Error(), b.key))
	}
	return &chat{name: b.name, model: b.model, p: p, base: b}, nil
}

// Name implements Model.
func (m *chat) Name() string { return m.name }

// Complete implements Model.
func (m *chat) Complete(ctx context.Context, r Request) (Completion, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, m.base.timeout, fmt.Errorf("no answer within %v", m.base.timeout))
	defer cancel()
	system := chatSystem
	if !r.Multiline {
		system += chatSingleLine
	}
	resp, err := m.p.Stream(ctx, &provider.Request{
		Model:     m.model,
		System:    system,
		MaxTokens: maxTokens(r),
		Messages: []provider.Message{{Role: provider.RoleUser, Blocks: []provider.Block{
			{Kind: provider.BlockText, Text: chatPrompt(r)},
		}}},
	}, nil)
	if err != nil {
		if ctx.Err() != nil {
			return Completion{}, m.base.ctxError(ctx)
		}
		return Completion{}, fmt.Errorf("%s: %w", m.name, err)
	}
	var text strings.Builder
	for _, b := range resp.Message.Blocks {
		if b.Kind == provider.BlockText {
			text.WriteString(b.Text)
		}
	}
	return Completion{Text: finish(r, cleanChat(r, text.String())), Model: orDefault(resp.Model, m.model)}, nil
}

// chatPrompt is the user message: the context snippets, then the file
// with the marker at the cursor.
func chatPrompt(r Request) string {
	var b strings.Builder
	for _, s := range r.Context {
		fmt.Fprintf(&b, "<snippet path=%q>\n%s\n</snippet>\n\n", header(s), strings.TrimRight(s.Text, "\n"))
	}
	lang := ""
	if r.Language != "" {
		lang = fmt.Sprintf(" language=%q", r.Language)
	}
	fmt.Fprintf(&b, "<file path=%q%s>\n%s%s%s\n</file>", r.Path, lang, r.Prefix, fillMarker, r.Suffix)
	return b.String()
}

// cleanChat strips what a chat model wraps its answer in: a code fence,
// the marker, a repeat of the current line's start (with or without its
// indentation) and a repeat of the suffix's first line.
func cleanChat(r Request, text string) string {
	text = unfence(text)
	text = strings.ReplaceAll(text, fillMarker, "")
	line := r.Prefix[strings.LastIndexByte(r.Prefix, '\n')+1:]
	if strings.TrimSpace(line) != "" {
		if t, ok := strings.CutPrefix(text, line); ok {
			text = t
		} else if t, ok := strings.CutPrefix(text, strings.TrimLeft(line, " \t")); ok {
			text = t
		}
	}
	next, _, _ := strings.Cut(r.Suffix, "\n")
	if next = strings.TrimSpace(next); next != "" {
		if t, ok := strings.CutSuffix(strings.TrimRight(text, " \t\r\n"), next); ok {
			text = t
		}
	}
	return text
}

// unfence returns the inside of a code fence around the whole text
// ("```go\n...\n```"), else the text.
func unfence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") {
		return text
	}
	first, rest, ok := strings.Cut(t, "\n")
	if !ok || strings.Contains(first[3:], "`") {
		return text
	}
	body, ok := strings.CutSuffix(rest, "```")
	if !ok {
		// An unclosed fence (cut by max_tokens): keep what it holds.
		return rest
	}
	return strings.TrimSuffix(body, "\n")
}
