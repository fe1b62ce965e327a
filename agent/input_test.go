package agent

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
)

func testImage() provider.Block {
	return provider.Block{Kind: provider.BlockImage, MediaType: "image/png", Data: "iVBORw0KGgo=", Name: "shot.png", Width: 1000, Height: 750}
}

// TestRunInputSendsImages: the images go in the user message after the
// text, are saved with the session and survive a reload.
func TestRunInputSendsImages(t *testing.T) {
	p := newScripted(say("a red square"))
	dir := filepath.Join(t.TempDir(), "sessions")
	st := openTestStore(t, dir)
	a := &Agent{Provider: p, Model: "claude-sonnet-4-5", Store: st}
	s := NewSession()
	if _, err := a.RunInput(context.Background(), s, Input{Text: "what is this?", Images: []provider.Block{testImage()}}); err != nil {
		t.Fatal(err)
	}
	want := []provider.Block{{Kind: provider.BlockText, Text: "what is this?"}, testImage()}
	if got := p.requests()[0].Messages[0].Blocks; !reflect.DeepEqual(got, want) {
		t.Errorf("sent %+v", got)
	}
	// A real directory, closed and opened again.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openTestStore(t, dir)
	defer st.Close()
	loaded, err := st.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := loaded.Messages[0].Blocks; !reflect.DeepEqual(got, want) {
		t.Errorf("stored %+v", got)
	}
	if loaded.Title != "what is this?" {
		t.Errorf("title %q", loaded.Title)
	}
}

// TestRunInputRefusesImagesWithoutVision: a clear error, no request, the
// session untouched.
func TestRunInputRefusesImagesWithoutVision(t *testing.T) {
	p := newScripted()
	var events []Event
	a := &Agent{Provider: p, Model: "gpt-3.5-turbo", Sink: func(e Event) { events = append(events, e) }}
	s := NewSession()
	res, err := a.RunInput(context.Background(), s, Input{Text: "look", Images: []provider.Block{testImage()}})
	var nv *provider.NoVisionError
	if !errors.As(err, &nv) || !strings.Contains(err.Error(), "model gpt-3.5-turbo does not accept images") {
		t.Fatalf("err = %v", err)
	}
	if res.StopReason != StopError || len(p.requests()) != 0 || len(s.Messages) != 0 || s.Turns != 0 {
		t.Errorf("stop %s, %d requests, %d messages, %d turns", res.StopReason, len(p.requests()), len(s.Messages), s.Turns)
	}
	if len(events) != 2 || events[0].Kind != EventError || events[1].Kind != EventDone {
		t.Errorf("events %+v", events)
	}
	// The configuration can say a model does take images.
	a.Vision = map[string]bool{"gpt-3.5": true}
	a.Provider = newScripted(say("ok"))
	if _, err := a.RunInput(context.Background(), s, Input{Text: "look", Images: []provider.Block{testImage()}}); err != nil {
		t.Errorf("with vision configured: %v", err)
	}
}

// TestImagesHiddenFromTextModel: after a switch to a model without vision,
// earlier images are sent as a note, not as image parts it would refuse.
func TestImagesHiddenFromTextModel(t *testing.T) {
	s := NewSession()
	s.addUser("look", []provider.Block{testImage()})
	s.Messages = append(s.Messages, provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{{Kind: provider.BlockText, Text: "a chart"}}})
	p := newScripted(say("ok"))
	a := &Agent{Provider: p, Model: "deepseek-chat"}
	if _, err := a.Run(context.Background(), s, "and now?"); err != nil {
		t.Fatal(err)
	}
	got := p.requests()[0].Messages[0].Blocks[1]
	if got.Kind != provider.BlockText || got.Text != "[image shot.png, 1000x750] (not shown: deepseek-chat does not take images)" {
		t.Errorf("image sent as %+v", got)
	}
	if s.Messages[0].Blocks[1].Kind != provider.BlockImage {
		t.Error("the session lost its image")
	}
}

// TestImageTokens: an image counts by the vendor's pixel formula, not by
// its base64 text.
func TestImageTokens(t *testing.T) {
	c := newTokenCounter("claude-sonnet-4-5")
	img := testImage()
	img.Data = strings.Repeat("A", 400_000) // the size of a real screenshot
	n := c.block(img)
	if want := blockOverhead + 1000; n != want {
		t.Errorf("image counted %d tokens, want %d", n, want)
	}
	// A changed image in the same message is recounted.
	m := provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{img}}
	before := c.messages([]provider.Message{m})
	m.Blocks[0].Width, m.Blocks[0].Data = 2000, img.Data+"AAAA"
	if after := c.messages([]provider.Message{m}); after == before {
		t.Errorf("count unchanged (%d) after the image changed", after)
	}
}

// TestTranscriptNamesImages: the summariser reads a note, never the data.
func TestTranscriptNamesImages(t *testing.T) {
	s := NewSession()
	s.addUser("what is this?", []provider.Block{testImage()})
	got := strings.Join(transcriptEntries(s.Messages), "\n")
	if !strings.Contains(got, "[image shot.png, 1000x750]") || strings.Contains(got, testImage().Data) {
		t.Errorf("transcript:\n%s", got)
	}
}

func TestAddUserImagesOnly(t *testing.T) {
	s := NewSession()
	s.addUser("", []provider.Block{testImage()})
	if len(s.Messages) != 1 || len(s.Messages[0].Blocks) != 1 || s.Messages[0].Blocks[0].Kind != provider.BlockImage || s.Title != "[image shot.png, 1000x750]" {
		t.Errorf("messages %+v, title %q", s.Messages, s.Title)
	}
}
