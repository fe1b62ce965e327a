package lsp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/fixture"
)

// parley/chat's images reach the model as image blocks after the text,
// downscaled to the API's limit, and are stored with the session.
func TestChatImages(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"model": "claude-sonnet-4-5"}`, false)
	var mu sync.Mutex
	var sent []provider.Block
	m.script("what is this?", func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		mu.Lock()
		sent = append([]provider.Block(nil), req.Messages[0].Blocks...)
		mu.Unlock()
		return reply("a dark rectangle")(ctx, req)
	})
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{
		Message: "what is this?",
		Images:  []ChatImage{{MediaType: "image/png", Data: fixture.PNGBase64(t, 3000, 1000), Name: "shot.png"}},
	}))
	if res.Text != "a dark rectangle" {
		t.Fatalf("result %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 2 || sent[0].Text != "what is this?" {
		t.Fatalf("sent %+v", sent)
	}
	if img := sent[1]; img.Kind != provider.BlockImage || img.MediaType != "image/png" || img.Name != "shot.png" || img.Width != 1568 || img.Height != 523 {
		t.Errorf("image block %s %s %q %dx%d", img.Kind, img.MediaType, img.Name, img.Width, img.Height)
	}
	var stored struct {
		Messages []provider.Message `json:"messages"`
	}
	var raw json.RawMessage
	if err := e.call(methodSession, sessionParams{Session: res.Session}, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &stored); err != nil || len(stored.Messages) == 0 || len(stored.Messages[0].Blocks) != 2 ||
		stored.Messages[0].Blocks[1].Data != sent[1].Data {
		t.Errorf("the session did not keep the image: %v", err)
	}
}

// Images for a model without vision, or that are no image, are refused
// as invalid params before anything runs.
func TestChatImageRefusals(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"model": "gpt-3.5-turbo"}`, false)
	for _, tc := range []struct {
		img  ChatImage
		want string
	}{
		{ChatImage{MediaType: "image/png", Data: fixture.PNGBase64(t, 4, 4)}, "model gpt-3.5-turbo does not accept images"},
		{ChatImage{MediaType: "image/png", Data: base64.StdEncoding.EncodeToString([]byte("hello")), Name: "x.png"}, "image x.png: not an image parley can read"},
	} {
		err := e.call(methodChat, ChatParams{Message: "look", Images: []ChatImage{tc.img}}, nil)
		if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want invalid params %q", err, tc.want)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.calls) != 0 {
		t.Errorf("the model was called: %v", m.calls)
	}
}
