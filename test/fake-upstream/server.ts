import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  anthropicError,
  messagesEvents,
  messagesJson,
  midStreamErrorEvent as anthropicMidError,
  writeAnthropicEvent,
} from './anthropic-wire.js';
import { embeddingsJson } from './embeddings-wire.js';
import { refusedWithoutBeta } from './anthropic-betas.js';
import { answerFault } from './faults.js';
import { completionRefusedByOpenAi, refusedByOpenAi, responsesRefusedByOpenAi } from './openai-declared.js';
import { responsesEvents, responsesJson, responsesMidStreamError, writeResponsesEvent } from './responses-wire.js';
import { NORMAL, parseBehaviour, type FakeBehaviour } from './behaviour.js';
import type { Json } from './json.js';
import {
  chatEvents,
  chatJson,
  completionEvents,
  completionJson,
  midStreamErrorEvent as openAiMidError,
  openAiError,
  writeOpenAiEvent,
} from './openai-wire.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (null when absent or not JSON). */
  body: Json | null;
  behaviour: FakeBehaviour;
  /** Client port of the connection (equal ports on two calls = the socket was reused). */
  remotePort: number | undefined;
  /** True once the connection closed before the fake finished its answer (client aborted). */
  closedEarly: boolean;
  /** Resolves when the response is finished or its connection closed. */
  closed: Promise<void>;
}

export interface FakeUpstream {
  url: string;
  port: number;
  /** Every call, in arrival order. */
  requests: RecordedRequest[];
  /** Behaviour for the next request(s), in FIFO order, e.g. `queue('fail-429')`. */
  queue(behaviour: string | Partial<FakeBehaviour>): void;
  /** Forgets recorded requests and queued behaviours. */
  reset(): void;
  close(): Promise<void>;
}

type Wire = 'openai-chat' | 'openai-completions' | 'openai-embeddings' | 'openai-responses' | 'anthropic';

const ROUTES: Record<string, Wire> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/completions': 'openai-completions',
  '/v1/embeddings': 'openai-embeddings',
  '/v1/responses': 'openai-responses',
  '/v1/messages': 'anthropic',
};

async function readBody(req: IncomingMessage): Promise<Json | null> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  if (parts.length === 0) return null;
  try {
    const value = JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function pickBehaviour(
  queued: FakeBehaviour | undefined,
  headers: IncomingHttpHeaders,
  body: Json | null,
): FakeBehaviour {
  if (queued !== undefined) return queued;
  const header = headers['x-fake-behaviour'];
  if (typeof header === 'string') {
    const b = parseBehaviour(header);
    if (b !== null) return b;
  }
  const model = typeof body?.model === 'string' ? body.model : '';
  return parseBehaviour(model.split('/').pop() ?? '') ?? NORMAL;
}

/** Starts the fake on 127.0.0.1 and an ephemeral port. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  let queued: FakeBehaviour[] = [];
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const behaviour = pickBehaviour(queued.shift(), req.headers, body);
    let finished = false;
    let resolveClosed: () => void = () => undefined;
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      behaviour,
      remotePort: req.socket.remotePort,
      closedEarly: false,
      closed: new Promise<void>((resolve) => {
        resolveClosed = resolve;
      }),
    };
    requests.push(record);
    res.on('close', () => {
      if (!finished && !res.writableFinished) record.closedEarly = true;
      resolveClosed();
    });
    try {
      await answer(req, res, path, body ?? {}, behaviour);
    } finally {
      finished = res.writableFinished;
    }
  }

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    body: Json,
    b: FakeBehaviour,
  ): Promise<void> => {
    const wire = req.method === 'POST' ? ROUTES[path] : undefined;
    if (wire === undefined) {
      sendJson(res, 404, {
        error: { message: `Unknown path ${path}`, type: 'invalid_request_error', code: 'not_found' },
      });
      return;
    }
    // Strict as the real APIs: a field they would refuse is a 400 (the gateway must never send one).
    const refused =
      wire === 'openai-chat'
        ? refusedByOpenAi(body)
        : wire === 'openai-completions'
          ? completionRefusedByOpenAi(body)
          : wire === 'openai-responses'
            ? responsesRefusedByOpenAi(body)
            : wire === 'anthropic'
              ? refusedWithoutBeta(body, req.headers)
              : null;
    if (refused !== null) {
      const error = { message: refused, type: 'invalid_request_error', param: null, code: null };
      sendJson(res, 400, wire === 'anthropic' ? { type: 'error', error } : { error });
      return;
    }
    if (b.hang) return; // never answers; the client must time out or abort
    if (b.slowFirstByteMs > 0) await sleep(b.slowFirstByteMs);
    if (res.destroyed) return;
    const anthropic = wire === 'anthropic';
    if (b.failStatus !== null) {
      const headers: Record<string, string> = {};
      if (b.failStatus === 429 || b.failStatus === 503 || b.failStatus === 529) headers['retry-after'] = '2';
      if (anthropic) headers['request-id'] = 'req_fake_1';
      const apiKey = bearer(req.headers.authorization);
      sendJson(
        res,
        b.failStatus,
        anthropic ? anthropicError(b.failStatus) : openAiError(b.failStatus, apiKey),
        headers,
      );
      return;
    }
    if (b.invalidJson) {
      res.writeHead(200, { 'content-type': body.stream === true ? 'text/event-stream' : 'application/json' });
      res.end(body.stream === true ? 'data: {not json\n\n' : '{"id": "broken"');
      return;
    }
    if (wire !== 'openai-embeddings' && wire !== 'openai-responses' && (await answerFault(res, wire, body, b))) return;
    if (body.stream === true) {
      await stream(res, wire, body, b);
      return;
    }
    const json =
      wire === 'openai-chat'
        ? chatJson(body, b)
        : wire === 'openai-completions'
          ? completionJson(body, b)
          : wire === 'openai-embeddings'
            ? embeddingsJson(body, b)
            : wire === 'openai-responses'
              ? responsesJson(body, b)
              : messagesJson(body, b);
    if (b.cutStreamAfter !== null) {
      const text = JSON.stringify(json);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      await sleep(5);
      res.socket?.destroy();
      return;
    }
    sendJson(res, 200, json);
  };

  const stream = async (res: ServerResponse, wire: Wire, body: Json, b: FakeBehaviour): Promise<void> => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(': OPENROUTER PROCESSING\n\n');
    const writers: (() => void)[] =
      wire === 'anthropic'
        ? messagesEvents(body, b).map((e) => () => writeAnthropicEvent(res, e))
        : wire === 'openai-responses'
          ? responsesEvents(body, b).map((e) => () => writeResponsesEvent(res, e))
          : (wire === 'openai-chat' ? chatEvents(body, b) : completionEvents(body, b)).map(
              (e) => () => writeOpenAiEvent(res, e),
            );
    if (b.midStreamError) {
      const at = Math.min(2, writers.length);
      writers.splice(
        at,
        writers.length - at,
        wire === 'anthropic'
          ? () => writeAnthropicEvent(res, anthropicMidError())
          : wire === 'openai-responses'
            ? () => writeResponsesEvent(res, responsesMidStreamError())
            : () => writeOpenAiEvent(res, openAiMidError()),
      );
    } else if (wire !== 'anthropic' && wire !== 'openai-responses' && !b.noDone) {
      writers.push(() => writeOpenAiEvent(res, '[DONE]'));
    }
    for (const [i, write] of writers.entries()) {
      if (res.destroyed) return;
      if (b.cutStreamAfter !== null && i >= b.cutStreamAfter) {
        await sleep(5); // let the written events reach the client first
        res.socket?.destroy();
        return;
      }
      if (i > 0 && b.chunkDelayMs > 0) await sleep(b.chunkDelayMs);
      if (res.destroyed) return;
      write();
    }
    if (b.endDelayMs > 0) await sleep(b.endDelayMs);
    res.end();
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    queue(behaviour: string | Partial<FakeBehaviour>): void {
      if (typeof behaviour === 'string') {
        const parsed = parseBehaviour(behaviour);
        if (parsed === null) throw new Error(`unknown fake behaviour: ${behaviour}`);
        queued.push(parsed);
      } else {
        queued.push({ ...NORMAL, ...behaviour });
      }
    },
    reset(): void {
      requests.length = 0;
      queued = [];
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function bearer(value: string | undefined): string | null {
  return value?.startsWith('Bearer ') === true ? value.slice(7) : null;
}

export function sendJson(res: ServerResponse, status: number, json: Json, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(json);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}
