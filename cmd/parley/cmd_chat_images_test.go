package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/parleyhq/parley/internal/fixture"
)

// pngOf encodes a w x h gradient as PNG.
func pngOf(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img) // writes to memory: cannot fail
	return buf.Bytes()
}

// writePNG writes a w x h PNG to path and returns its bytes.
func writePNG(t *testing.T, path string, w, h int) []byte {
	t.Helper()
	data := pngOf(w, h)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// mkPNG is the testscript command "mkpng FILE W H".
func mkPNG(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: mkpng FILE W H")
	}
	w, err1 := strconv.Atoi(args[1])
	h, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil {
		ts.Fatalf("mkpng: W and H must be numbers")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), pngOf(w, h), 0o644))
}

// TestChatImageCommand: /image attaches a file to the next message, whose
// request carries it as an image_url part; it is used up by that turn.
func TestChatImageCommand(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, map[string]string{".parley/config.json": `{"vision": {"fake-model": true}}`})
	data := writePNG(t, filepath.Join(dir, "shot.png"), 40, 30)
	app, llm, out := openTestChat(t, dir, ws, "text a gradient\n---\ntext ok\n", &chatFlags{noWatch: true})

	app.command("/image " + filepath.Join(dir, "shot.png"))
	if !strings.Contains(out.String(), "attached shot.png 40x30, ~255 tokens") {
		t.Fatalf("output:\n%s", out)
	}
	app.command("/image")
	if strings.Count(out.String(), "attached shot.png") != 2 {
		t.Errorf("/image does not list the attachment:\n%s", out)
	}
	if _, err := app.turn(context.Background(), "what is it?"); err != nil {
		t.Fatal(err)
	}
	want := `{"image_url":{"url":"data:image/png;base64,` + base64.StdEncoding.EncodeToString(data) + `"},"type":"image_url"}`
	if reqs := llm.Requests(); len(reqs) != 1 || !bytes.Contains(reqs[0], []byte(want)) {
		t.Fatalf("%d requests; the first lacks the image part %.120s…", len(reqs), want)
	}
	if len(app.images) != 0 {
		t.Errorf("%d images still attached after the turn", len(app.images))
	}
	if _, err := app.turn(context.Background(), "thanks"); err != nil {
		t.Fatal(err)
	}
	// The image stays in the history (the session), once.
	if n := bytes.Count(llm.Requests()[1], []byte(`data:image/png;base64,`)); n != 1 {
		t.Errorf("second request has %d images", n)
	}
}

// TestChatImageRefusals: a model without vision and a file that is no
// image are refused when attached, and nothing is sent.
func TestChatImageRefusals(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	fixture.WriteTree(t, ws, map[string]string{"notes.txt": "hello"})
	writePNG(t, filepath.Join(dir, "shot.png"), 4, 4)
	app, llm, out := openTestChat(t, dir, ws, "text never\n", &chatFlags{noWatch: true})
	app.command("/image " + filepath.Join(dir, "shot.png"))
	app.command("/image " + filepath.Join(ws, "notes.txt"))
	for _, want := range []string{
		"image: model fake-model does not accept images; pick a vision model with --model or /model",
		"image: image notes.txt: not an image parley can read (PNG, JPEG, GIF or WebP)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if len(app.images) != 0 || len(llm.Requests()) != 0 {
		t.Errorf("%d images attached, %d requests", len(app.images), len(llm.Requests()))
	}
}
