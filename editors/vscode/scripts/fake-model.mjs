// A fake model API on 127.0.0.1 speaking Anthropic's Messages streaming
// wire format (Server-Sent Events), answering each request with the next
// scripted step and keeping the request bodies (what the model was told).
// Used by record-fixtures.mjs and the end-to-end tests (test/integration,
// e2e/).
//
// A step is {blocks: [{thinking} | {text} | {tool, input}], input?,
// output?, cached?} or {status, body} for an HTTP error.
//
// POST /v1/completions is a code-completion model instead: OpenAI's legacy
// completions ({model, prompt, suffix, max_tokens, stop} → a
// text_completion), answered by scriptCompletions' steps {text, delay?} or
// {status, body}, or by a function of the request body; with nothing
// scripted, an empty completion. Each request is recorded with whether the
// client gave up on it (closed the connection) before the answer.

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

/** Answers one POST /v1/completions. */
async function completion(req, res, text, next, record) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'the body is not JSON', type: 'invalid_request_error' } }));
    return;
  }
  const rec = { body, aborted: false, answered: false };
  record.push(rec);
  // The server aborts a superseded request by closing its connection.
  res.on('close', () => {
    if (!res.writableFinished) {
      rec.aborted = true;
    }
  });
  const step = next(body) ?? { text: '' };
  if (step.delay) {
    await new Promise((r) => setTimeout(r, step.delay));
  }
  if (rec.aborted) {
    return;
  }
  if (step.status) {
    res.writeHead(step.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(step.body ?? { error: { message: 'scripted error', type: 'server_error' } }));
    return;
  }
  rec.answered = true;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `cmpl-${record.length}`,
      object: 'text_completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? 'fake-fim',
      choices: [{ text: step.text ?? '', index: 0, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: Math.ceil((body.prompt?.length ?? 0) / 4), completion_tokens: Math.ceil((step.text?.length ?? 0) / 4), total_tokens: 0 },
    }),
  );
}

export async function startFakeModel() {
  let steps = [];
  let requests = 0;
  const bodies = [];
  let completionSteps = [];
  const completionRecord = [];
  const nextCompletion = (body) => (typeof completionSteps === 'function' ? completionSteps(body) : completionSteps.shift());
  const server = http.createServer((req, res) => {
    const body = [];
    req.on('data', (b) => body.push(b));
    req.on('end', async () => {
      if (req.method === 'POST' && new URL(req.url, 'http://x').pathname === '/v1/completions') {
        await completion(req, res, Buffer.concat(body).toString(), nextCompletion, completionRecord);
        return;
      }
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
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    url: `${base}/v1/messages`,
    /** The completion model's endpoint (OpenAI-compatible legacy completions). */
    completionsUrl: `${base}/v1/completions`,
    /**
     * Replaces the completion answers still to come: steps ({text,
     * delay?} or {status, body}) used in order, or a function of the
     * request body returning one.
     */
    scriptCompletions(next) {
      completionSteps = typeof next === 'function' ? next : [...next];
    },
    /** The completion requests so far, oldest first: {body, aborted, answered}. */
    completions: () => completionRecord,
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
