package mcpclient

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/tools"
)

// MaxResult bounds the text of one tool result the model sees.
const MaxResult = 256 << 10

// maxToolName is the longest tool name every provider accepts.
const maxToolName = 64

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// ToolName is the model-facing name of tool on server: mcp_{server}_{tool}
// with characters providers refuse replaced by "_"; a name over 64
// characters is cut and ends in a hash of the whole, so it stays unique.
func ToolName(server, tool string) string {
	n := unsafeName.ReplaceAllString("mcp_"+server+"_"+tool, "_")
	if len(n) <= maxToolName {
		return n
	}
	sum := sha256.Sum256([]byte(n))
	return n[:maxToolName-9] + "_" + hex.EncodeToString(sum[:4])
}

// tool is one server tool offered to the model.
type tool struct {
	s      *server
	remote string // the server's name for it
	name   string
	desc   string
	schema json.RawMessage
}

func newTool(s *server, t *mcp.Tool) (*tool, error) {
	schema, err := objectSchema(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = t.Title
	}
	return &tool{
		s: s, remote: t.Name, name: ToolName(s.name, t.Name), schema: schema,
		desc: fmt.Sprintf("[MCP server %s, tool %s] %s", s.name, t.Name, desc),
	}, nil
}

// objectSchema is the tool's input schema as JSON; providers want an
// object schema, so one without a type gets type object.
func objectSchema(v any) (json.RawMessage, error) {
	if v == nil {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, errors.New("input schema is not a JSON object")
	}
	switch m["type"] {
	case "object":
		return data, nil
	case nil:
		m["type"] = "object"
		return json.Marshal(m)
	}
	return nil, fmt.Errorf("input schema has type %v, not object", m["type"])
}

func (t *tool) Name() string            { return t.name }
func (t *tool) Description() string     { return t.desc }
func (t *tool) Schema() json.RawMessage { return t.schema }

// ReadOnly is false whatever the server's annotations say: the policy
// allows read-only calls without asking, and a server's claim about
// itself is not the user's decision.
func (t *tool) ReadOnly() bool { return false }

// Prepare checks that the input is a JSON object; the server validates
// the rest against its schema.
func (t *tool) Prepare(env *tools.Env, input json.RawMessage) (tools.Call, error) {
	var obj map[string]json.RawMessage
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	if err := json.Unmarshal(input, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("invalid input: the arguments of %s must be a JSON object", t.name)
	}
	return &call{t: t, env: env, input: input}, nil
}

type call struct {
	t     *tool
	env   *tools.Env
	input json.RawMessage
}

func (c *call) Access() access.Access {
	return access.Access{Summary: fmt.Sprintf("MCP server %s: %s %s", c.t.s.name, c.t.remote, clip(string(c.input), 200))}
}

// Run calls the tool, starting the server first if it is not running.
// Only the turn's cancellation is a Go error.
func (c *call) Run(ctx context.Context) (*tools.Result, error) {
	s := c.t.s
	cs, err := s.session(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tools.Errorf("MCP server %s is not running: %v", s.name, err), nil
	}
	params := &mcp.CallToolParams{Name: c.t.remote, Arguments: c.input}
	if c.env != nil && c.env.Output != nil {
		token := fmt.Sprintf("parley-%d", s.tokens.Add(1))
		params.SetProgressToken(token)
		s.progress.Store(token, func(line string) { c.env.Output(c.t.name, line) })
		defer s.progress.Delete(token)
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tools.Errorf("MCP server %s: %v", s.name, s.withStderr(err)), nil
	}
	return &tools.Result{Content: resultText(res), IsError: res.IsError}, nil
}

// resultText flattens a result's content for the model: text as is, other
// content described, structured content as JSON when there is no text.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		switch c := c.(type) {
		case *mcp.TextContent:
			b.WriteString(c.Text)
		case *mcp.ImageContent:
			fmt.Fprintf(&b, "[image %s, %d bytes]", c.MIMEType, len(c.Data))
		case *mcp.AudioContent:
			fmt.Fprintf(&b, "[audio %s, %d bytes]", c.MIMEType, len(c.Data))
		case *mcp.ResourceLink:
			fmt.Fprintf(&b, "[resource %s %s]", c.URI, c.Name)
		case *mcp.EmbeddedResource:
			if r := c.Resource; r != nil && r.Text != "" {
				fmt.Fprintf(&b, "[resource %s]\n%s", r.URI, r.Text)
			} else if r != nil {
				fmt.Fprintf(&b, "[resource %s, %s]", r.URI, describeBlob(r.Blob))
			}
		default:
			data, _ := json.Marshal(c)
			b.Write(data)
		}
	}
	if b.Len() == 0 && res.StructuredContent != nil {
		data, _ := json.Marshal(res.StructuredContent)
		b.Write(data)
	}
	return clip(b.String(), MaxResult)
}

func describeBlob(blob []byte) string {
	return fmt.Sprintf("%d bytes (base64 %d)", len(blob), base64.StdEncoding.EncodedLen(len(blob)))
}

// clip cuts s to at most n bytes on a rune boundary, saying so.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[cut: %d more bytes]", len(s)-cut)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
