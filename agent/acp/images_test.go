package acp_test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/agent/config"
	shared "github.com/parleyhq/parley/internal/fixture"
)

// TestPromptImages: parley advertises images; an image block reaches the
// model as an image part (downscaled to the API's limit), is kept with
// the session and replayed when the session is loaded.
func TestPromptImages(t *testing.T) {
	f := newFixture(t, "text a dark square\n", nil)
	f.configure = func(ws *acp.Workspace) {
		if err := ws.Config.Merge(config.Layer{Vision: map[string]bool{"fake-model": true}}, "test"); err != nil {
			t.Fatal(err)
		}
	}
	client := newFakeClient()
	ws := f.workspace(t)
	srv := acp.New(acp.Options{Version: "test", Open: func(string) (*acp.Workspace, error) { return ws, nil }})
	conn := serve(t, srv, client)
	ctx := ctxT(t)
	init, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil || !init.AgentCapabilities.PromptCapabilities.Image {
		t.Fatalf("initialize: %+v, %v", init.AgentCapabilities.PromptCapabilities, err)
	}
	sess := f.newSession(t, ctx, conn)
	prompt := []sdk.ContentBlock{sdk.TextBlock("what is this?"), sdk.ImageBlock(shared.PNGBase64(t, 3000, 1000), "image/png")}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: prompt}); err != nil {
		t.Fatal(err)
	}
	req := string(f.llm.Requests()[0])
	if !strings.Contains(req, `"url":"data:image/png;base64,`) || !strings.Contains(req, `"type":"image_url"`) {
		t.Fatalf("the request has no image part: %.400s", lastMessage(f.llm.Requests()[0]))
	}
	if strings.Contains(req, shared.PNGBase64(t, 3000, 1000)) {
		t.Error("the 3000 px image was sent without being downscaled")
	}

	c2 := newFakeClient()
	conn2 := f.connect(t, c2, sdk.ClientCapabilities{})
	if _, err := conn2.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: f.root, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	updates, _, _ := c2.snapshot()
	var replayed *sdk.ContentBlockImage
	for _, n := range updates {
		if u := n.Update.UserMessageChunk; u != nil && u.Content.Image != nil {
			replayed = u.Content.Image
		}
	}
	if replayed == nil || replayed.MimeType != "image/png" {
		t.Fatalf("the image was not replayed: %+v", replayed)
	}
	data, _ := base64.StdEncoding.DecodeString(replayed.Data)
	if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || cfg.Width != 2048 || cfg.Height != 683 {
		t.Errorf("replayed image %dx%d, %v; want the 2048x683 sent", cfg.Width, cfg.Height, err)
	}
}

// TestPromptImageRefusals: a model without vision and a block that is no
// image are refused with a clear error; nothing reaches the model.
func TestPromptImageRefusals(t *testing.T) {
	f := newFixture(t, "text never\n", nil)
	conn := f.connect(t, newFakeClient(), sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	for _, tc := range []struct {
		block sdk.ContentBlock
		want  string
	}{
		{sdk.ImageBlock(shared.PNGBase64(t, 4, 4), "image/png"), "model fake-model does not accept images"},
		{sdk.ImageBlock(base64.StdEncoding.EncodeToString([]byte("hello")), "image/png"), "not an image parley can read"},
		{sdk.ImageBlock("", "image/png"), "an image block without data"},
	} {
		_, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("look"), tc.block}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	if n := len(f.llm.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}
