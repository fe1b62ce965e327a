package fakellm

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
)

func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}

func TestEmbeddingNearness(t *testing.T) {
	base := Embedding("Database migrations run with make migrate", 384)
	near := Embedding("how do I run a migration", 384)
	far := Embedding("the user prefers tabs in Makefiles", 384)
	if got := cosine(base, base); math.Abs(got-1) > 1e-5 {
		t.Fatalf("self-similarity %v, want 1", got)
	}
	if cn, cf := cosine(base, near), cosine(base, far); cn <= cf {
		t.Errorf("shared stems %.3f not nearer than unrelated %.3f", cn, cf)
	}
	if a, b := Embedding("same text", 64), Embedding("same text", 64); cosine(a, b) < 0.99999 || len(a) != 64 {
		t.Errorf("not deterministic or wrong dimension: %d", len(a))
	}
}

func TestEmbeddingDim(t *testing.T) {
	for model, want := range map[string]int{"fake-embed-64": 64, "text-embedding-3-small": DefaultEmbeddingDim, "m": DefaultEmbeddingDim, "x-0": DefaultEmbeddingDim} {
		if got := EmbeddingDim(model); got != want {
			t.Errorf("EmbeddingDim(%q) = %d, want %d", model, got, want)
		}
	}
}

func TestServeEmbeddings(t *testing.T) {
	url, srv := Start(t, "key k\ntext hi\n")
	post := func(body, key string) (*http.Response, map[string]any) {
		req, _ := http.NewRequest("POST", url+"/v1/embeddings", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp, out
	}
	resp, out := post(`{"model":"fake-8","input":["a b","c"]}`, "k")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %v", resp.StatusCode, out)
	}
	data := out["data"].([]any)
	if len(data) != 2 || out["object"] != "list" || out["model"] != "fake-8" {
		t.Fatalf("answer %v", out)
	}
	if d := data[1].(map[string]any); d["index"].(float64) != 1 || len(d["embedding"].([]any)) != 8 {
		t.Errorf("second datum %v", d)
	}
	if resp, _ := post(`{"model":"fake-8","input":"one"}`, "k"); resp.StatusCode != 200 {
		t.Errorf("string input: status %d", resp.StatusCode)
	}
	if resp, _ := post(`{"model":"fake-8","input":["x"]}`, "wrong"); resp.StatusCode != 401 {
		t.Errorf("wrong key: status %d", resp.StatusCode)
	}
	if resp, _ := post(`{"input":["x"]}`, "k"); resp.StatusCode != 400 {
		t.Errorf("no model: status %d", resp.StatusCode)
	}
	if n := srv.EmbeddingRequests(); n != 4 {
		t.Errorf("EmbeddingRequests = %d, want 4", n)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("embeddings counted as %d chat requests", n)
	}
}
