package embed

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Embedder turns texts into vectors; Client is the real one.
type Embedder interface {
	// Embed returns one unit-length vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model names the model, which keys cached vectors and tells stored
	// vectors of different models apart.
	Model() string
}

// Cache keeps vectors by Key. Implementations must be safe for
// concurrent use when the Client is shared.
type Cache interface {
	// GetEmbedding returns the cached vector for key, if any.
	GetEmbedding(key [32]byte) ([]float32, bool, error)
	// PutEmbeddings stores vectors by key.
	PutEmbeddings(keys [][32]byte, vecs [][]float32) error
}

// Key is the cache key of text embedded by model.
func Key(model, text string) [32]byte {
	h := sha256.New()
	h.Write([]byte(model))
	h.Write([]byte{0})
	h.Write([]byte(text))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// Defaults.
const (
	DefaultBatchSize  = 64
	DefaultMaxRetries = 4
)

// Config says where and how to reach the endpoint.
type Config struct {
	// URL is the endpoint, e.g. https://api.openai.com/v1/embeddings or
	// http://localhost:11434/v1 (a URL ending in /v1 gets /embeddings).
	URL   string
	Model string
	// Key is sent as a bearer token when not empty.
	Key string
	// HTTP is the client to use (nil: http.DefaultClient).
	HTTP *http.Client
	// BatchSize is the most inputs per request (0: DefaultBatchSize).
	BatchSize int
	// MaxRetries is the retries after a failed attempt (0:
	// DefaultMaxRetries, negative: none).
	MaxRetries int
	// Cache, when set, keeps vectors by content hash.
	Cache Cache
}

// Client embeds through an OpenAI-compatible endpoint.
type Client struct {
	cfg Config
	svc openai.EmbeddingService
}

// New checks cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, errors.New("embeddings: embedding_model is not set")
	}
	base, err := BaseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	httpc := cfg.HTTP
	if httpc == nil {
		httpc = http.DefaultClient
	}
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(httpc),
		option.WithMaxRetries(cfg.MaxRetries),
	}
	if cfg.Key != "" {
		opts = append(opts, option.WithAPIKey(cfg.Key))
	}
	// Built directly, not through openai.NewClient, which reads OPENAI_*
	// variables: a local server must not be sent the user's OpenAI key.
	return &Client{cfg: cfg, svc: openai.NewEmbeddingService(opts...)}, nil
}

// BaseURL is the SDK base URL ("…/v1/") of an embeddings endpoint URL.
func BaseURL(endpoint string) (string, error) {
	u := strings.TrimRight(strings.TrimSpace(endpoint), "/")
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || len(u) <= len("https://") {
		return "", fmt.Errorf("embeddings: embedding_api_url %q: want an http or https URL such as https://api.openai.com/v1/embeddings", endpoint)
	}
	u = strings.TrimSuffix(u, "/embeddings")
	return u + "/", nil
}

// Model is the configured model name.
func (c *Client) Model() string { return c.cfg.Model }

// Embed embeds texts (see the package contracts).
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	keys := make([][32]byte, len(texts))
	var missing []string        // distinct texts to request
	where := map[string][]int{} // text -> positions in texts
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, fmt.Errorf("embeddings: input %d is empty", i+1)
		}
		keys[i] = Key(c.cfg.Model, t)
		if pos, seen := where[t]; seen {
			where[t] = append(pos, i)
			continue
		}
		where[t] = []int{i}
		if c.cfg.Cache != nil {
			v, ok, err := c.cfg.Cache.GetEmbedding(keys[i])
			if err != nil {
				return nil, fmt.Errorf("embeddings: cache: %w", err)
			}
			if ok {
				out[i] = v
				continue
			}
		}
		missing = append(missing, t)
	}
	for start := 0; start < len(missing); start += c.cfg.BatchSize {
		batch := missing[start:min(len(missing), start+c.cfg.BatchSize)]
		vecs, err := c.request(ctx, batch)
		if err != nil {
			return nil, err
		}
		bkeys := make([][32]byte, len(batch))
		for j, t := range batch {
			bkeys[j] = keys[where[t][0]]
			out[where[t][0]] = vecs[j]
		}
		if c.cfg.Cache != nil {
			if err := c.cfg.Cache.PutEmbeddings(bkeys, vecs); err != nil {
				return nil, fmt.Errorf("embeddings: cache: %w", err)
			}
		}
	}
	for _, pos := range where {
		for _, i := range pos[1:] {
			out[i] = out[pos[0]]
		}
	}
	dim := 0
	for i, v := range out {
		if dim == 0 {
			dim = len(v)
		}
		if len(v) != dim {
			return nil, fmt.Errorf("embeddings: %s returned vectors of %d and %d dimensions (input %d)", c.cfg.Model, dim, len(v), i+1)
		}
	}
	return out, nil
}

// request embeds one batch of distinct texts.
func (c *Client) request(ctx context.Context, batch []string) ([][]float32, error) {
	res, err := c.svc.New(ctx, openai.EmbeddingNewParams{
		Model:          c.cfg.Model,
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	})
	if err != nil {
		return nil, fmt.Errorf("embeddings %s: %w", c.cfg.Model, describe(err))
	}
	if len(res.Data) != len(batch) {
		return nil, fmt.Errorf("embeddings %s: %d vectors for %d inputs", c.cfg.Model, len(res.Data), len(batch))
	}
	vecs := make([][]float32, len(batch))
	for _, d := range res.Data {
		i := int(d.Index)
		if i < 0 || i >= len(batch) || vecs[i] != nil {
			return nil, fmt.Errorf("embeddings %s: bad or repeated index %d in the answer", c.cfg.Model, d.Index)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embeddings %s: empty vector for input %d", c.cfg.Model, i+1)
		}
		v, err := normalize(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("embeddings %s: input %d: %w", c.cfg.Model, i+1, err)
		}
		vecs[i] = v
	}
	return vecs, nil
}

// describe shortens the SDK's API errors to status and message (its full
// text repeats the request line and body).
func describe(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		msg := apiErr.Message
		if msg == "" {
			msg = strings.TrimSpace(apiErr.RawJSON())
		}
		return fmt.Errorf("HTTP %d: %s", apiErr.StatusCode, msg)
	}
	return err
}

// normalize scales v to unit length, so cosine similarity is a dot product.
func normalize(v []float64) ([]float32, error) {
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil, errors.New("vector is zero or not finite")
	}
	n := math.Sqrt(sum)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / n)
	}
	return out, nil
}
