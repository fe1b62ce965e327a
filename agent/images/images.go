// Package images turns a file or bytes the user attached into an image
// block a model API accepts: the type is detected from the content (PNG,
// JPEG, GIF or WebP, whatever the name or a claimed media type says), an
// image larger than the API's limits (provider.ImageLimits: long edge,
// bytes, formats) is downscaled with its aspect kept and re-encoded (PNG,
// or JPEG for photographs and when PNG stays too large), and anything else
// is refused with an error that says why.
//
// Contracts: the input is untrusted (a pasted clipboard, a client's
// base64); nothing here panics on it, and its pixel count is checked from
// the header before anything is decoded, so a small file that declares a
// huge image costs no memory. Safe for concurrent use.
package images

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // registers the decoder
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the decoder

	"github.com/parleyhq/parley/agent/provider"
)

const (
	// MaxInputBytes caps what is read of one attached image.
	MaxInputBytes = 32 << 20
	// MaxPixels caps the image a header may declare: 50 megapixels (an
	// 8K screenshot is 33) decode to 200 MB, the most one image may take.
	MaxPixels = 50_000_000
	// minEdge is the smallest long edge shrinking goes down to before an
	// image is refused as too large.
	minEdge = 256
	// jpegQuality is what re-encoded photographs are saved at.
	jpegQuality = 85
)

// ErrNotImage is wrapped when the bytes are no image parley can read.
var ErrNotImage = errors.New("not an image parley can read (PNG, JPEG, GIF or WebP)")

// Load reads the image file at path and prepares it for lim (see Prepare).
func Load(path string, lim provider.ImageLimits) (provider.Block, error) {
	f, err := os.Open(path)
	if err != nil {
		return provider.Block{}, fmt.Errorf("image: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return provider.Block{}, fmt.Errorf("image: %w", err)
	}
	name := filepath.Base(path)
	if st.IsDir() {
		return provider.Block{}, fmt.Errorf("image %s: is a directory", name)
	}
	if st.Size() > MaxInputBytes {
		return provider.Block{}, fmt.Errorf("image %s: %d MB is more than the %d MB parley reads", name, st.Size()>>20, MaxInputBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return provider.Block{}, fmt.Errorf("image: %w", err)
	}
	return Prepare(name, data, lim)
}

// FromBase64 prepares an image sent as base64 (a client's paste, an ACP
// image block). A "data:...;base64," prefix is accepted; the claimed media
// type is not trusted: the content decides.
func FromBase64(name, b64 string, lim provider.ImageLimits) (provider.Block, error) {
	if i := strings.Index(b64, ";base64,"); i >= 0 && strings.HasPrefix(b64, "data:") {
		b64 = b64[i+len(";base64,"):]
	}
	if base64.StdEncoding.DecodedLen(len(b64)) > MaxInputBytes {
		return provider.Block{}, fmt.Errorf("%s: more than the %d MB parley reads", what(name), MaxInputBytes>>20)
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return provider.Block{}, fmt.Errorf("%s: the data is not base64: %w", what(name), err)
	}
	return Prepare(name, data, lim)
}

// Prepare makes data an image block within lim. An image that already
// fits (size, bytes and format) is sent as it is; a larger one is scaled
// down to lim.LongEdge, and further while its encoding is over
// lim.MaxBase64. Block.Width and Height are the size sent.
func Prepare(name string, data []byte, lim provider.ImageLimits) (provider.Block, error) {
	name = strings.TrimSpace(name)
	if len(data) > MaxInputBytes {
		return provider.Block{}, fmt.Errorf("%s: %d MB is more than the %d MB parley reads", what(name), len(data)>>20, MaxInputBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return provider.Block{}, fmt.Errorf("%s: %w", what(name), ErrNotImage)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return provider.Block{}, fmt.Errorf("%s: %dx%d pixels is more than the %d megapixels parley reads", what(name), cfg.Width, cfg.Height, MaxPixels/1_000_000)
	}
	mediaType := "image/" + format
	if max(cfg.Width, cfg.Height) <= lim.LongEdge && lim.Accepts(mediaType) && base64.StdEncoding.EncodedLen(len(data)) <= lim.MaxBase64 {
		return block(name, mediaType, data, cfg.Width, cfg.Height), nil
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return provider.Block{}, fmt.Errorf("%s: %w: %v", what(name), ErrNotImage, err)
	}
	return fit(name, img, format == "jpeg", lim)
}

// fit scales img down until its encoding fits lim. photo prefers JPEG.
func fit(name string, img image.Image, photo bool, lim provider.ImageLimits) (provider.Block, error) {
	b := img.Bounds()
	long := max(b.Dx(), b.Dy())
	edge := min(long, lim.LongEdge)
	for {
		scaled := img
		if edge < long {
			scaled = scale(img, edge)
		}
		sb := scaled.Bounds()
		for _, enc := range encoders(photo) {
			data, mediaType, err := enc(scaled)
			if err != nil {
				return provider.Block{}, fmt.Errorf("%s: encode: %w", what(name), err)
			}
			if lim.Accepts(mediaType) && base64.StdEncoding.EncodedLen(len(data)) <= lim.MaxBase64 {
				return block(name, mediaType, data, sb.Dx(), sb.Dy()), nil
			}
		}
		if edge <= minEdge {
			return provider.Block{}, fmt.Errorf("%s: too large for the model even scaled down to %d pixels (at most %d MB)", what(name), edge, lim.MaxBase64>>20)
		}
		edge = max(edge*3/4, minEdge)
	}
}

type encoder func(image.Image) ([]byte, string, error)

// encoders lists the encodings to try, best first: PNG keeps screenshots
// and diagrams sharp; JPEG is far smaller for photographs.
func encoders(photo bool) []encoder {
	if photo {
		return []encoder{encodeJPEG}
	}
	return []encoder{encodePNG, encodeJPEG}
}

func encodePNG(img image.Image) ([]byte, string, error) {
	var buf bytes.Buffer
	err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	return buf.Bytes(), "image/png", err
}

// encodeJPEG flattens transparency onto white first: JPEG has no alpha,
// and transparent pixels would otherwise come out black.
func encodeJPEG(img image.Image) ([]byte, string, error) {
	b := img.Bounds()
	flat := image.NewRGBA(b)
	draw.Draw(flat, b, image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(flat, b, img, b.Min, draw.Over)
	var buf bytes.Buffer
	err := jpeg.Encode(&buf, flat, &jpeg.Options{Quality: jpegQuality})
	return buf.Bytes(), "image/jpeg", err
}

// scale resizes img so its long edge is edge, keeping the aspect ratio:
// first averaging whole k x k blocks (fast, and no aliasing), then
// Catmull-Rom for the last factor below 2, which keeps the text of a
// screenshot legible where bilinear would blur it. Catmull-Rom over the
// whole factor costs seconds on a 12-megapixel photograph.
func scale(img image.Image, edge int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	long := max(w, h)
	nw := max(1, (w*edge+long/2)/long)
	nh := max(1, (h*edge+long/2)/long)
	src := toRGBA(img)
	if k := min(w/nw, h/nh); k >= 2 {
		src = boxShrink(src, k)
	}
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok && r.Rect.Min == (image.Point{}) {
		return r
	}
	b := img.Bounds()
	r := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(r, r.Rect, img, b.Min, draw.Src)
	return r
}

// boxShrink divides src's size by k, each pixel the mean of a k x k block
// (premultiplied colour averages correctly); a partial block at the right
// or bottom edge is dropped.
func boxShrink(src *image.RGBA, k int) *image.RGBA {
	w, h := src.Rect.Dx()/k, src.Rect.Dy()/k
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	sum := make([]int, 4*w)
	n := k * k
	for y := range h {
		clear(sum)
		for yy := y * k; yy < (y+1)*k; yy++ {
			row := src.Pix[yy*src.Stride:]
			for x := range w {
				px := row[x*k*4 : (x+1)*k*4]
				for i := 0; i < len(px); i += 4 {
					sum[4*x] += int(px[i])
					sum[4*x+1] += int(px[i+1])
					sum[4*x+2] += int(px[i+2])
					sum[4*x+3] += int(px[i+3])
				}
			}
		}
		out := dst.Pix[y*dst.Stride:]
		for i := range 4 * w {
			out[i] = uint8((sum[i] + n/2) / n)
		}
	}
	return dst
}

func block(name, mediaType string, data []byte, w, h int) provider.Block {
	return provider.Block{
		Kind: provider.BlockImage, MediaType: mediaType, Name: name,
		Data: base64.StdEncoding.EncodeToString(data), Width: w, Height: h,
	}
}

// what names an image in errors: "image shot.png", or "image".
func what(name string) string {
	if name == "" {
		return "image"
	}
	return "image " + name
}

// Check refuses images for a model that does not take them
// (*provider.NoVisionError); overrides is the configuration's "vision".
func Check(model string, overrides map[string]bool, imgs []provider.Block) error {
	if len(imgs) == 0 || provider.SupportsImages(model, overrides) {
		return nil
	}
	return &provider.NoVisionError{Model: model}
}

// Describe is how an attached image is shown to the user: "shot.png
// 1568x1176, ~1600 tokens".
func Describe(b provider.Block, model string) string {
	name := b.Name
	if name == "" {
		name = "image"
	}
	return fmt.Sprintf("%s %dx%d, ~%d tokens", name, b.Width, b.Height, provider.ImageTokens(model, b.Width, b.Height))
}
