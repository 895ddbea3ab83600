import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalCompletionChunk,
  CanonicalCompletionResponse,
  CanonicalUsage,
} from '../../canonical/index.js';
import { errors, isGatewayError, renderError, type GatewayError } from '../../errors/index.js';
import { legacyCompletion } from '../../providers/index.js';
import { estimateTokens } from '../../canonical/index.js';
import type { Gateway, PreparedCall } from '../../gateway/gateway.js';
import { costOf, usageWithCost } from '../../gateway/cost.js';
import {
  ChatRequestSchema,
  CompletionRequestSchema,
  type ChatRequestBody,
  type CompletionRequestBody,
} from '../../gateway/request-schema.js';
import type { CallKind } from '../../gateway/request-kinds.js';
import { SseWriter } from '../../gateway/sse-writer.js';
import type { RouteCandidate } from '../../domain/routing/index.js';
import { errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';
import { markModelCallScope } from '../../observability/request-log.js';
import { abortOnDisconnect } from '../client-abort.js';

export interface ModelCallOptions {
  gateway: Gateway;
  /** Before the first streamed byte, wait this long before committing 200 and sending keep-alives. */
  keepAliveAfterMs: number;
  keepAliveEveryMs: number;
}

type AnyChunk = CanonicalChunk | CanonicalCompletionChunk;

/** Names of the `flag` content filters that matched the request, comma-separated (absent when none). */
export const CONTENT_FLAGS_HEADER = 'x-switchyard-content-flags';

/** Headers every answer of a prepared call carries, JSON and SSE alike. */
function callHeaders(call: PreparedCall): Record<string, string> {
  const headers: Record<string, string> = { 'x-request-id': call.requestId, 'x-generation-id': call.generationId };
  if (call.flags.length > 0) headers[CONTENT_FLAGS_HEADER] = call.flags.join(',');
  return headers;
}

/**
 * Keeps the text a chunk streamed to the client. It is tokenised once, at the end, and only when
 * the upstream never reported usage (a cut stream): counting every chunk with the BPE tokenizer
 * cost more than the rest of the streaming path.
 */
function keepText(chunk: AnyChunk, into: string[]): void {
  for (const choice of chunk.choices) {
    if ('delta' in choice) {
      if (choice.delta.content !== undefined && choice.delta.content !== null) into.push(choice.delta.content);
      if (choice.delta.tool_calls !== undefined) into.push(JSON.stringify(choice.delta.tool_calls));
    } else if ('text' in choice) into.push(choice.text);
  }
}

function finishOf(chunk: AnyChunk): string | null {
  for (const choice of chunk.choices)
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) return choice.finish_reason;
  return null;
}

async function respondJson(gateway: Gateway, call: PreparedCall, reply: FastifyReply) {
  const signal = abortOnDisconnect(reply);
  const ctx = { signal, requestId: call.requestId };
  const outcome = await gateway.attempt<CanonicalChatResponse | CanonicalCompletionResponse>(
    call,
    signal,
    (c, endpoint) => {
      const adapter = gateway.adapterFor(c);
      return call.kind === 'chat'
        ? adapter.chat(endpoint, gateway.chatRequest(call, c), ctx)
        : legacyCompletion(adapter).completion(endpoint, gateway.completionRequest(call, c), ctx);
    },
  );
  const { value, candidate } = outcome;
  const first = value.choices[0];
  const cost = gateway.settle({
    call,
    candidate,
    attempts: outcome.attempts,
    usage: value.usage,
    finishReason: first?.finish_reason ?? null,
    nativeFinishReason:
      first !== undefined && 'native_finish_reason' in first ? (first.native_finish_reason ?? null) : null,
    upstreamId: value.id,
    firstByteMs: outcome.firstByteMs,
    cancelled: false,
  });
  return {
    ...value,
    id: call.generationId,
    model: candidate.model.slug,
    provider: candidate.provider.name,
    usage: usageWithCost(value.usage, cost),
  };
}

function errorChunk(call: PreparedCall, slug: string, error: GatewayError) {
  const base = { id: call.generationId, created: Math.floor(Date.now() / 1000), model: slug };
  const payload = { code: error.status, message: error.message, metadata: error.metadata };
  return call.kind === 'chat'
    ? {
        ...base,
        object: 'chat.completion.chunk',
        error: payload,
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
      }
    : { ...base, object: 'text_completion', error: payload, choices: [{ index: 0, text: '', finish_reason: 'error' }] };
}

async function respondStream(
  gateway: Gateway,
  call: PreparedCall,
  reply: FastifyReply,
  options: ModelCallOptions,
): Promise<void> {
  const signal = abortOnDisconnect(reply);
  const ctx = { signal, requestId: call.requestId };
  const writer = new SseWriter(reply.raw, {
    keepAliveAfterMs: options.keepAliveAfterMs,
    keepAliveEveryMs: options.keepAliveEveryMs,
    headers: callHeaders(call),
  });
  reply.hijack();
  writer.startWaiting();
  let outcome;
  try {
    outcome = await gateway.attempt<AsyncIterable<AnyChunk>>(call, signal, (c, endpoint) => {
      const adapter = gateway.adapterFor(c);
      return call.kind === 'chat'
        ? adapter.chatStream(endpoint, gateway.chatRequest(call, c), ctx)
        : legacyCompletion(adapter).completionStream(endpoint, gateway.completionRequest(call, c), ctx);
    });
  } catch (raw) {
    writer.stopWaiting();
    const error = isGatewayError(raw) ? raw : errors.internal(raw);
    if (!writer.headersSent) {
      if (!reply.raw.destroyed)
        reply.raw
          .writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', ...error.headers })
          .end(JSON.stringify(renderError(error)));
      return;
    }
    await writer.data(JSON.stringify(errorChunk(call, call.body.model ?? '', error)));
    writer.end();
    return;
  }
  writer.stopWaiting();
  const { candidate } = outcome;
  let usage: CanonicalUsage | null = null;
  let finish: string | null = null;
  let upstreamId: string | null = null;
  const streamed: string[] = [];
  try {
    for await (const chunk of outcome.value) {
      upstreamId ??= chunk.id;
      finish = finishOf(chunk) ?? finish;
      if (usage === null) keepText(chunk, streamed);
      // Each chunk is a fresh object the adapter keeps no reference to (ProviderAdapter): patched
      // in place rather than copied; the JSON is the same (keys keep their places, provider last).
      const out = chunk as AnyChunk & { provider?: string };
      out.id = call.generationId;
      out.model = candidate.model.slug;
      out.provider = candidate.provider.name;
      if (chunk.usage !== undefined) {
        usage = chunk.usage;
        out.usage = usageWithCost(usage, costOf(usage, candidate.endpoint.pricing));
      }
      // data() returns a promise only under backpressure: no microtask hop per event otherwise.
      const drained = writer.data(JSON.stringify(out));
      if (drained !== undefined) await drained;
      if (signal.aborted) break;
    }
  } catch (raw) {
    finish = 'error';
    if (!signal.aborted) {
      const error = isGatewayError(raw) ? raw : errors.badGateway('Provider stream failed');
      await writer.data(JSON.stringify(errorChunk(call, candidate.model.slug, error)));
    }
  }
  settleStream(
    gateway,
    { call, candidate, attempts: outcome.attempts, firstByteMs: outcome.firstByteMs },
    { usage, finish, upstreamId, streamed, cancelled: signal.aborted },
  );
  writer.end();
}

function settleStream(
  gateway: Gateway,
  base: {
    call: PreparedCall;
    candidate: RouteCandidate;
    attempts: { provider: string; model: string; status: number | null }[];
    firstByteMs: number;
  },
  seen: {
    usage: CanonicalUsage | null;
    finish: string | null;
    upstreamId: string | null;
    streamed: string[];
    cancelled: boolean;
  },
): void {
  gateway.settle({
    ...base,
    usage: seen.usage ?? gateway.estimatedUsage(base.call, estimateTokens(seen.streamed.join(''))),
    finishReason: seen.finish,
    upstreamId: seen.upstreamId,
    cancelled: seen.cancelled,
  });
}

async function handle(
  kind: CallKind,
  gateway: Gateway,
  options: ModelCallOptions,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const call = await gateway.prepare({
    kind,
    key: request.principal,
    body: request.body as ChatRequestBody | CompletionRequestBody,
    requestId: request.id,
  });
  // From here the gateway settles the call and logs its call-log line, whatever happens.
  request.reachedGateway = true;
  if (call.stream) return respondStream(gateway, call, reply, options);
  reply.header('x-request-id', call.requestId).header('x-generation-id', call.generationId);
  if (call.flags.length > 0) reply.header(CONTENT_FLAGS_HEADER, call.flags.join(','));
  return respondJson(gateway, call, reply);
}

/** POST /chat/completions and POST /completions (API keys only), JSON and SSE. */
export function modelCallRoutes(parent: App, options: ModelCallOptions): void {
  void parent.register(async (app: App) => modelCallScope(app, options));
}

function modelCallScope(app: App, options: ModelCallOptions): void {
  markModelCallScope(app);
  const responses = errorResponses(400, 401, 402, 403, 404, 408, 413, 429, 500, 502, 503);
  app.post('/chat/completions', {
    schema: {
      tags: ['Model calls'],
      operationId: 'sendChatCompletionRequest',
      body: ChatRequestSchema,
      response: responses,
    },
    handler: (request, reply) => handle('chat', options.gateway, options, request, reply),
  });
  app.post('/completions', {
    schema: {
      tags: ['Model calls'],
      operationId: 'createCompletions',
      body: CompletionRequestSchema,
      response: responses,
    },
    handler: (request, reply) => handle('completion', options.gateway, options, request, reply),
  });
}
