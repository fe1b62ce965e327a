package images

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
)

// gradient is a w x h test picture that compresses well.
func gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			copy(img.Pix[i:i+4], []uint8{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255})
		}
	}
	return img
}

// noise is a w x h picture that does not compress.
func noise(w, h int) *image.NRGBA {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
	}
	return img
}

func encode(t testing.TB, img image.Image, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decoded checks b's data is an image of b's size and media type.
func decoded(t *testing.T, b provider.Block) image.Config {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(b.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if "image/"+format != b.MediaType || cfg.Width != b.Width || cfg.Height != b.Height {
		t.Fatalf("block says %s %dx%d, data is %s %dx%d", b.MediaType, b.Width, b.Height, format, cfg.Width, cfg.Height)
	}
	return cfg
}

func TestDownscaleKeepsAspect(t *testing.T) {
	data := encode(t, gradient(4000, 3000), "png")
	for _, name := range []string{provider.NameAnthropic, provider.NameOpenAI, provider.NameGemini} {
		lim := provider.ImageLimitsFor(name)
		b, err := Prepare("big.png", data, lim)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		decoded(t, b)
		if max(b.Width, b.Height) != lim.LongEdge {
			t.Errorf("%s: %dx%d, want a long edge of %d", name, b.Width, b.Height, lim.LongEdge)
		}
		if r := float64(b.Width) / float64(b.Height); math.Abs(r-4.0/3) > 0.01 {
			t.Errorf("%s: aspect %.3f, want 4:3", name, r)
		}
		if b.MediaType != "image/png" || len(b.Data) > lim.MaxBase64 || b.Name != "big.png" {
			t.Errorf("%s: %s, %d bytes of base64, name %q", name, b.MediaType, len(b.Data), b.Name)
		}
	}
}

func TestSmallImagePassesThrough(t *testing.T) {
	data := encode(t, gradient(64, 48), "png")
	b, err := Prepare("small.png", data, provider.ImageLimitsFor(provider.NameAnthropic))
	if err != nil {
		t.Fatal(err)
	}
	if b.Data != base64.StdEncoding.EncodeToString(data) || b.Width != 64 || b.Height != 48 || b.Kind != provider.BlockImage {
		t.Errorf("block = %s %dx%d, changed: %v", b.MediaType, b.Width, b.Height, b.Data != base64.StdEncoding.EncodeToString(data))
	}
}

func TestFormats(t *testing.T) {
	webp, err := os.ReadFile(filepath.Join("testdata", "gopher.webp")) // from golang.org/x/image's test data
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		data     []byte
		provider string
		want     string
		w, h     int
	}{
		{"jpeg", encode(t, gradient(100, 50), "jpeg"), provider.NameAnthropic, "image/jpeg", 100, 50},
		{"webp", webp, provider.NameOpenAI, "image/webp", 75, 100},
		{"gif", encode(t, gradient(30, 20), "gif"), provider.NameAnthropic, "image/gif", 30, 20},
		// Gemini takes no GIF: it is re-encoded.
		{"gif for gemini", encode(t, gradient(30, 20), "gif"), provider.NameGemini, "image/png", 30, 20},
		// A large photograph stays a JPEG.
		{"big jpeg", encode(t, gradient(3000, 1000), "jpeg"), provider.NameAnthropic, "image/jpeg", 1568, 523},
	}
	for _, tc := range tests {
		b, err := Prepare(tc.name, tc.data, provider.ImageLimitsFor(tc.provider))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		decoded(t, b)
		if b.MediaType != tc.want || b.Width != tc.w || b.Height != tc.h {
			t.Errorf("%s: %s %dx%d, want %s %dx%d", tc.name, b.MediaType, b.Width, b.Height, tc.want, tc.w, tc.h)
		}
	}
}

// TestBytesLimit: an image within the long edge but over the byte limit
// is shrunk until it fits.
func TestBytesLimit(t *testing.T) {
	data := encode(t, noise(1000, 800), "png") // about 3 MB
	lim := provider.ImageLimits{LongEdge: 2000, MaxBase64: 1 << 20, Formats: []string{"image/png", "image/jpeg"}}
	b, err := Prepare("noise.png", data, lim)
	if err != nil {
		t.Fatal(err)
	}
	decoded(t, b)
	if len(b.Data) > lim.MaxBase64 {
		t.Errorf("%d bytes of base64, limit %d", len(b.Data), lim.MaxBase64)
	}
}

func TestRefusals(t *testing.T) {
	lim := provider.ImageLimitsFor(provider.NameAnthropic)
	// A PNG header declaring 10000x10000 pixels, with no pixels behind it.
	huge := encode(t, gradient(1, 1), "png")
	copy(huge[16:24], []byte{0, 0, 0x27, 0x10, 0, 0, 0x27, 0x10})
	binary.BigEndian.PutUint32(huge[29:33], crc32.ChecksumIEEE(huge[12:29]))
	tests := []struct {
		name string
		data []byte
		lim  provider.ImageLimits
		want string
	}{
		{"notes.txt", []byte("hello, world"), lim, "image notes.txt: not an image parley can read (PNG, JPEG, GIF or WebP)"},
		{"", nil, lim, "image: not an image parley can read"},
		{"huge.png", huge, lim, "image huge.png: 10000x10000 pixels is more than the 50 megapixels parley reads"},
		{"noise.png", encode(t, noise(600, 600), "png"), provider.ImageLimits{LongEdge: 600, MaxBase64: 1000, Formats: lim.Formats},
			"image noise.png: too large for the model even scaled down to 256 pixels"},
	}
	for _, tc := range tests {
		_, err := Prepare(tc.name, tc.data, tc.lim)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := Prepare("x", []byte("GIF89a"), lim); !errors.Is(err, ErrNotImage) {
		t.Errorf("truncated GIF: %v, want ErrNotImage", err)
	}
}

func TestFromBase64(t *testing.T) {
	data := encode(t, gradient(20, 10), "png")
	lim := provider.ImageLimitsFor(provider.NameOpenAI)
	for _, in := range []string{
		base64.StdEncoding.EncodeToString(data),
		"data:image/png;base64," + base64.StdEncoding.EncodeToString(data),
	} {
		b, err := FromBase64("pasted.png", in, lim)
		if err != nil || b.Width != 20 || b.Height != 10 || b.MediaType != "image/png" {
			t.Errorf("FromBase64: %+v, %v", b, err)
		}
	}
	if _, err := FromBase64("x", "not base64!", lim); err == nil || !strings.Contains(err.Error(), "not base64") {
		t.Errorf("bad base64: %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shot.png")
	if err := os.WriteFile(path, encode(t, gradient(10, 10), "png"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := Load(path, provider.ImageLimitsFor(provider.NameAnthropic))
	if err != nil || b.Name != "shot.png" {
		t.Fatalf("Load: %+v, %v", b.Name, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.png"), provider.ImageLimits{}); err == nil {
		t.Error("a missing file loaded")
	}
	if _, err := Load(dir, provider.ImageLimits{}); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
}

func TestCheck(t *testing.T) {
	img := []provider.Block{{Kind: provider.BlockImage}}
	var nv *provider.NoVisionError
	if err := Check("gpt-3.5-turbo", nil, img); !errors.As(err, &nv) || nv.Model != "gpt-3.5-turbo" {
		t.Errorf("gpt-3.5-turbo: %v", err)
	}
	if err := Check("gpt-3.5-turbo", nil, nil); err != nil {
		t.Errorf("no images: %v", err)
	}
	if err := Check("claude-sonnet-4-5", nil, img); err != nil {
		t.Errorf("claude: %v", err)
	}
	if err := Check("my-vlm", map[string]bool{"my-vlm": true}, img); err != nil {
		t.Errorf("configured: %v", err)
	}
}

func TestDescribe(t *testing.T) {
	b := provider.Block{Name: "shot.png", Width: 1000, Height: 1000}
	if got := Describe(b, "claude-sonnet-4-5"); got != "shot.png 1000x1000, ~1334 tokens" {
		t.Errorf("Describe = %q", got)
	}
}

// FuzzPrepare feeds untrusted bytes (a paste, a client's base64): Prepare
// never panics, and what it accepts is an image of the size it reports,
// within the limits.
func FuzzPrepare(f *testing.F) {
	f.Add(encode(f, gradient(8, 8), "png"))
	f.Add(encode(f, gradient(8, 8), "jpeg"))
	f.Add(encode(f, gradient(8, 8), "gif"))
	if webp, err := os.ReadFile(filepath.Join("testdata", "gopher.webp")); err == nil {
		f.Add(webp)
	}
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	lim := provider.ImageLimits{LongEdge: 64, MaxBase64: 64 << 10, Formats: []string{"image/png", "image/jpeg"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Prepare("fuzz", data, lim)
		if err != nil {
			return
		}
		cfg := decoded(t, b)
		if max(cfg.Width, cfg.Height) > lim.LongEdge || len(b.Data) > lim.MaxBase64 || !lim.Accepts(b.MediaType) {
			t.Fatalf("out of limits: %s %dx%d, %d bytes", b.MediaType, cfg.Width, cfg.Height, len(b.Data))
		}
	})
}

// BenchmarkPrepare measures downscaling: a 2560x1600 screenshot and a
// 4000x3000 photograph to Anthropic's 1568 px, a 1280x800 screenshot that
// passes through. go test ./agent/images -run '^$' -bench Prepare
func BenchmarkPrepare(b *testing.B) {
	lim := provider.ImageLimitsFor(provider.NameAnthropic)
	for _, tc := range []struct {
		name   string
		w, h   int
		format string
	}{
		{"screenshot-2560x1600-png", 2560, 1600, "png"},
		{"photo-4000x3000-jpeg", 4000, 3000, "jpeg"},
		{"small-1280x800-png", 1280, 800, "png"},
	} {
		data := encode(b, gradient(tc.w, tc.h), tc.format)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Prepare("x", data, lim); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
