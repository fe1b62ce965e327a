// A fake model API on 127.0.0.1 speaking Anthropic's Messages streaming
// wire format (Server-Sent Events), answering each request with the next
// scripted step and keeping the request bodies (what the model was told).
// Used by record-fixtures.mjs and the end-to-end tests (test/integration,
// e2e/).
//
// A step is {blocks: [{thinking} | {text} | {tool, input}], input?,
// output?, cached?} or {status, body} for an HTTP error.

import * as http from 'node:http';

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Splits text into a few deltas at word boundaries, as a model streams. */
function chunks(text, n = 4) {
  const words = text.split(/(?<=\s)/);
  const per = Math.max(1, Math.ceil(words.length / n));
  const out = [];
  for (let i = 0; i < words.length; i += per) {
    out.push(words.slice(i, i + per).join(''));
  }
  return out;
}

export async function startFakeModel() {
  let steps = [];
  let requests = 0;
  const bodies = [];
  const server = http.createServer((req, res) => {
    const body = [];
    req.on('data', (b) => body.push(b));
    req.on('end', async () => {
      const n = ++requests;
      const text = Buffer.concat(body).toString();
      try {
        bodies.push(JSON.parse(text));
      } catch {
        bodies.push(text);
      }
      const step = steps.shift();
      if (!step) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'no scripted response left' } }));
        return;
      }
      if (step.status) {
        res.writeHead(step.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(step.body));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      sse(res, 'message_start', {
        type: 'message_start',
        message: {
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          content: [],
          model: 'fake-model',
          stop_reason: null,
          usage: { input_tokens: step.input ?? 1200, output_tokens: 1, cache_read_input_tokens: step.cached ?? 0 },
        },
      });
      let stop = 'end_turn';
      for (const [i, b] of step.blocks.entries()) {
        if (b.thinking !== undefined) {
          sse(res, 'content_block_start', { type: 'content_block_start', index: i, content_block: { type: 'thinking', thinking: '' } });
          for (const c of chunks(b.thinking, 2)) {
            sse(res, 'content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'thinking_delta', thinking: c } });
          }
          sse(res, 'content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } });
        } else if (b.text !== undefined) {
          sse(res, 'content_block_start', { type: 'content_block_start', index: i, content_block: { type: 'text', text: '' } });
          for (const c of chunks(b.text)) {
            sse(res, 'content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'text_delta', text: c } });
            await new Promise((r) => setTimeout(r, 5));
          }
        } else {
          stop = 'tool_use';
          sse(res, 'content_block_start', { type: 'content_block_start', index: i, content_block: { type: 'tool_use', id: `toolu_${n}_${i}`, name: b.tool, input: {} } });
          sse(res, 'content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
        }
        sse(res, 'content_block_stop', { type: 'content_block_stop', index: i });
      }
      sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: step.output ?? 80 } });
      sse(res, 'message_stop', { type: 'message_stop' });
      res.end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1/messages`,
    /** Replaces the steps still to come. */
    script(next) {
      steps = [...next];
    },
    requests: () => requests,
    /** The parsed request bodies so far, oldest first. */
    bodies: () => bodies,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
