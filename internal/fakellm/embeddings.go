package fakellm

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// DefaultEmbeddingDim is the dimension of fake embeddings when the model
// name does not end in one ("fake-embed-64" gives 64).
const DefaultEmbeddingDim = 384

// serveEmbeddings answers an OpenAI /v1/embeddings request with
// deterministic vectors (see Embedding). It uses up no script block, so
// memory writes and recalls do not disturb a chat script.
func (s *Server) serveEmbeddings(w http.ResponseWriter, body []byte, keyOK bool) {
	s.mu.Lock()
	s.embedReqs++
	s.mu.Unlock()
	if !keyOK {
		writeError(w, 401, `{"error":{"type":"invalid_request_error","code":"invalid_api_key","message":"invalid api key"}}`)
		return
	}
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	var inputs []string
	err := json.Unmarshal(body, &req)
	if err == nil {
		var one string
		if json.Unmarshal(req.Input, &one) == nil {
			inputs = []string{one}
		} else {
			err = json.Unmarshal(req.Input, &inputs)
		}
	}
	if err != nil || req.Model == "" || len(inputs) == 0 {
		writeError(w, 400, `{"error":{"type":"invalid_request_error","message":"fakellm: want {\"model\": ..., \"input\": string or [strings]}"}}`)
		return
	}
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Object string  `json:"object"`
		Data   []datum `json:"data"`
		Model  string  `json:"model"`
		Usage  struct {
			PromptTokens int `json:"prompt_tokens"`
			TotalTokens  int `json:"total_tokens"`
		} `json:"usage"`
	}{Object: "list", Model: req.Model}
	dim := EmbeddingDim(req.Model)
	for i, in := range inputs {
		if strings.TrimSpace(in) == "" {
			writeError(w, 400, fmt.Sprintf(`{"error":{"type":"invalid_request_error","message":"input %d is empty"}}`, i))
			return
		}
		out.Data = append(out.Data, datum{"embedding", i, Embedding(in, dim)})
		out.Usage.PromptTokens += len(strings.Fields(in))
	}
	out.Usage.TotalTokens = out.Usage.PromptTokens
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// EmbeddingRequests is the number of /embeddings requests received.
func (s *Server) EmbeddingRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embedReqs
}

// EmbeddingDim is the dimension fake embeddings of model have: a number
// ending the name after a "-", else DefaultEmbeddingDim.
func EmbeddingDim(model string) int {
	if i := strings.LastIndexByte(model, '-'); i >= 0 {
		if n, err := strconv.Atoi(model[i+1:]); err == nil && n > 0 && n <= 8192 {
			return n
		}
	}
	return DefaultEmbeddingDim
}

// Embedding is the fake embedding of text: a hashed bag of word stems
// (weight 1) and of the stems' character trigrams (weight 0.5 each),
// normalised to unit length. Texts sharing stems ("migrations",
// "migrate") come out near each other, which is what a test of hybrid
// search needs from a model; it knows no synonyms.
func Embedding(text string, dim int) []float32 {
	v := make([]float64, dim)
	add := func(feature string, w float64) {
		h := fnv.New64a()
		h.Write([]byte(feature))
		x := h.Sum64()
		sign := 1.0
		if x>>63 == 1 {
			sign = -1
		}
		v[int(x%uint64(dim))] += sign * w
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, w := range words {
		st := stem(w)
		if st == "" {
			continue
		}
		add("w:"+st, 1)
		padded := "^" + st + "$"
		for i := 0; i+3 <= len(padded); i++ {
			add("g:"+padded[i:i+3], 0.5)
		}
	}
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	out := make([]float32, dim)
	if sum == 0 {
		// Nothing indexable: a fixed unit vector, still a valid answer.
		out[0] = 1
		return out
	}
	n := math.Sqrt(sum)
	for i, x := range v {
		out[i] = float32(x / n)
	}
	return out
}

// stem strips a few English suffixes; stop words stem to "".
func stem(w string) string {
	switch w {
	case "a", "an", "the", "of", "to", "in", "is", "are", "and", "or", "for", "on", "with", "be", "it", "do", "i", "how", "what", "where", "which", "when", "should", "does":
		return ""
	}
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ions", "ion", "ers", "er", "ed", "es", "ly", "s", "e"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}
