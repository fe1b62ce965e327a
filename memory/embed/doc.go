// Package embed turns text into embedding vectors through any
// OpenAI-compatible /v1/embeddings endpoint (OpenAI, Ollama, LM Studio,
// llama.cpp, internal/fakellm).
//
// Contracts:
//   - Client.Embed returns one unit-length vector per input, in input
//     order, all of the same dimension; it never returns a partial result.
//   - Inputs are sent in batches of at most BatchSize; identical inputs are
//     sent once.
//   - Every vector is looked up in, and written to, the Client's Cache by
//     a hash of the model and the text, so embedding the same text again
//     costs no request while the Cache holds it (memory's cache is
//     bounded and drops the least recently used vectors).
//   - 408, 409, 429 and 5xx answers and connection failures are retried
//     with exponential backoff (Retry-After honoured) by the official
//     OpenAI SDK's retry loop; other failures are errors at once.
//   - The API key is sent as a bearer token and never appears in errors
//     or logs.
//   - A Client is safe for concurrent use if its Cache is.
package embed
