/**
 * Fake upstream (plain node:http, no artificial delay), OpenAI-compatible and Anthropic-format:
 * POST …/chat/completions answers the ~1.5 KB completion, or with `"stream": true` the 20-event
 * SSE stream, each event its own write; POST …/messages answers the same text as an Anthropic
 * message, or its 23-event stream; POST …:generateContent / :streamGenerateContent the same as
 * Gemini's answer or its 17-event stream; POST …/responses as a Responses object or its 25-event
 * stream. A `user` of `bench-pace:<ms>:<events>` paces and lengthens the stream (used only by the
 * concurrent-stream test; `user` is a field every gateway passes upstream, unlike a made-up one);
 * a `user` of `bench-echo` answers the request body as received as the completion's text.
 * Prints nothing; reports its port over IPC.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { reportReady } from '../child.js';
import { anthropicMessageJson, anthropicSseEvents, completionJson, ECHO_USER, sseEvents } from '../payloads.js';
import { converseJson, converseStreamFrames } from '../bedrock-payloads.js';
import { geminiResponseJson, geminiSseEvents } from '../payloads-gemini.js';
import { responsesJson, responsesSseEvents } from '../responses-payloads.js';

const JSON_BODY = Buffer.from(completionJson());
const EVENTS = sseEvents().map((e) => Buffer.from(e));
const ANTHROPIC_JSON_BODY = Buffer.from(anthropicMessageJson());
const ANTHROPIC_EVENTS = anthropicSseEvents().map((e) => Buffer.from(e));
const CONVERSE_JSON_BODY = Buffer.from(converseJson());
const CONVERSE_FRAMES = converseStreamFrames();
const GEMINI_JSON_BODY = Buffer.from(geminiResponseJson());
const GEMINI_EVENTS = geminiSseEvents().map((e) => Buffer.from(e));
const RESPONSES_JSON_BODY = Buffer.from(responsesJson());
const RESPONSES_EVENTS = responsesSseEvents().map((e) => Buffer.from(e));

interface Wanted {
  stream: boolean;
  /** `user: "bench-echo"`: the answer's text is the request body as received (the preflight's redaction check). */
  echo: boolean;
  intervalMs: number;
  /** Paced streams only: this many content events (cycling over the answer), default the answer once. */
  events: number;
}

function wanted(raw: string): Wanted {
  try {
    const body: unknown = JSON.parse(raw);
    if (typeof body !== 'object' || body === null) return { stream: false, echo: false, intervalMs: 0, events: 0 };
    const o = body as Record<string, unknown>;
    const pace = typeof o.user === 'string' ? /^bench-pace:(\d+):(\d+)$/.exec(o.user) : null;
    return {
      stream: o.stream === true,
      echo: o.user === ECHO_USER,
      intervalMs: Number(pace?.[1] ?? 0),
      events: Number(pace?.[2] ?? 0),
    };
  } catch {
    return { stream: false, echo: false, intervalMs: 0, events: 0 };
  }
}

/** Role, `count` content events cycling over the answer (0: the answer once), finish, usage, [DONE]. */
function pacedEvents(count: number): Buffer[] {
  if (count <= 0) return EVENTS;
  const content = EVENTS.slice(1, -3);
  const out: Buffer[] = EVENTS.slice(0, 1);
  for (let i = 0; i < count; i++) out.push(content[i % content.length] ?? Buffer.alloc(0));
  return [...out, ...EVENTS.slice(-3)];
}

/**
 * First event at once (the gateway's time to first chunk is what is measured), then one content
 * event per interval; finish, usage and `[DONE]` leave together and the body ends, as real
 * providers do.
 */
function paced(res: ServerResponse, intervalMs: number, count: number): void {
  const events = pacedEvents(count);
  const tail = events.slice(-3);
  const body = events.slice(0, -3);
  const first = body[0];
  if (first !== undefined) res.write(first);
  let i = 1;
  const timer = setInterval(() => {
    if (res.destroyed) {
      clearInterval(timer);
      return;
    }
    const event = body[i++];
    if (event !== undefined) {
      res.write(event);
      return;
    }
    clearInterval(timer);
    for (const e of tail) res.write(e);
    res.end();
  }, intervalMs);
  res.on('close', () => clearInterval(timer));
}

/** A whole answer, or every event its own write (no pacing): Anthropic's Messages API, OpenAI's Responses API. */
function answerWhole(res: ServerResponse, stream: boolean, json: Buffer, events: readonly Buffer[]): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
    res.end(json);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(event);
  res.end();
}

/** Bedrock's Converse (`/model/{id}/converse`) and ConverseStream (`/converse-stream`), unsigned here. */
function answerConverse(res: ServerResponse, stream: boolean): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': CONVERSE_JSON_BODY.length });
    res.end(CONVERSE_JSON_BODY);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
  for (const frame of CONVERSE_FRAMES) res.write(frame);
  res.end();
}

/** Gemini's generateContent (the whole answer) or streamGenerateContent (every event its own write). */
function answerGemini(res: ServerResponse, stream: boolean): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': GEMINI_JSON_BODY.length });
    res.end(GEMINI_JSON_BODY);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of GEMINI_EVENTS) res.write(event);
  res.end();
}

function answer(req: IncomingMessage, res: ServerResponse, raw: string): void {
  // Azure's deployment URL ends in `?api-version=…`: the route is the path without the query.
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (req.method === 'POST' && path.startsWith('/model/')) {
    answerConverse(res, path.endsWith('/converse-stream'));
    return;
  }
  const gemini = req.method === 'POST' ? /:(generateContent|streamGenerateContent)$/.exec(path) : null;
  if (gemini !== null) {
    answerGemini(res, gemini[1] === 'streamGenerateContent');
    return;
  }
  if (req.method === 'POST' && path.endsWith('/messages')) {
    answerWhole(res, wanted(raw).stream, ANTHROPIC_JSON_BODY, ANTHROPIC_EVENTS);
    return;
  }
  if (req.method === 'POST' && path.endsWith('/responses')) {
    answerWhole(res, wanted(raw).stream, RESPONSES_JSON_BODY, RESPONSES_EVENTS);
    return;
  }
  if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    return;
  }
  const w = wanted(raw);
  if (!w.stream) {
    const json = w.echo ? Buffer.from(completionJson(raw)) : JSON_BODY;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
    res.end(json);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (w.intervalMs > 0) {
    paced(res, w.intervalMs, w.events);
    return;
  }
  for (const event of EVENTS) res.write(event);
  res.end();
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => answer(req, res, Buffer.concat(parts).toString('utf8')));
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null) reportReady(address.port);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
