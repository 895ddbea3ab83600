import { setTimeout as sleep } from 'node:timers/promises';
import {
  deltaChunk,
  usageChunk,
  type CanonicalChatRequest,
  type CanonicalChatResponse,
  type CanonicalChunk,
  type CanonicalEmbeddingsRequest,
  type CanonicalEmbeddingsResponse,
  type CanonicalUsage,
  type ChunkLabel,
} from '../../canonical/index.js';
import { abortedError } from '../../upstream/index.js';
import { nowSeconds } from '../../canonical/json.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../wire/adapter.js';
import { demoAnswer, demoId, type DemoAnswer } from './answer.js';
import { demoEmbeddings } from './embeddings.js';

export interface DemoAdapterOptions {
  /** Pause between streamed pieces (default 0). An endpoint may override it with `?delay_ms=N` in its base URL. */
  chunkDelayMs?: number;
}

function usageOf(a: DemoAnswer): CanonicalUsage {
  return {
    prompt_tokens: a.promptTokens,
    completion_tokens: a.completionTokens,
    total_tokens: a.promptTokens + a.completionTokens,
  };
}

function delayFor(endpoint: ProviderEndpointConfig, fallback: number): number {
  const m = /[?&]delay_ms=(\d+)/.exec(endpoint.baseUrl);
  return m?.[1] === undefined ? fallback : Number(m[1]);
}

/**
 * Built-in provider with no network: deterministic answers derived from the request (echo of
 * the last user message, a call of the first/chosen tool, or a JSON value valid against the
 * requested `json_schema`), streamed word by word; embeddings are deterministic unit vectors.
 * Legacy completions are left to completionViaChat.
 */
export class DemoAdapter implements ProviderAdapter {
  readonly kind = 'demo' as const;

  constructor(private readonly options: DemoAdapterOptions = {}) {}

  async chat(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    if (ctx.signal.aborted) throw abortedError(endpoint.providerId, ctx.signal.reason);
    const a = demoAnswer(req);
    const content = a.pieces.join('');
    return {
      id: demoId(req),
      object: 'chat.completion',
      created: nowSeconds(),
      model: req.model,
      choices: [
        {
          index: 0,
          message:
            a.toolCalls.length > 0
              ? { role: 'assistant', content: null, tool_calls: a.toolCalls, refusal: null }
              : { role: 'assistant', content, refusal: null },
          finish_reason: a.finishReason,
        },
      ],
      system_fingerprint: null,
      usage: usageOf(a),
    };
  }

  async embeddings(
    endpoint: ProviderEndpointConfig,
    req: CanonicalEmbeddingsRequest,
    ctx: CallContext,
  ): Promise<CanonicalEmbeddingsResponse> {
    if (ctx.signal.aborted) throw abortedError(endpoint.providerId, ctx.signal.reason);
    return demoEmbeddings(req, `gen-${ctx.requestId}`);
  }

  async chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    if (ctx.signal.aborted) throw abortedError(endpoint.providerId, ctx.signal.reason);
    return this.chunks(endpoint, req, ctx);
  }

  private async *chunks(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): AsyncGenerator<CanonicalChunk, void, undefined> {
    const a = demoAnswer(req);
    const delay = delayFor(endpoint, this.options.chunkDelayMs ?? 0);
    const label: ChunkLabel = { id: demoId(req), created: nowSeconds(), model: req.model };
    const step = async (): Promise<void> => {
      if (delay > 0) await sleep(delay, undefined, { signal: ctx.signal }).catch(() => undefined);
      if (ctx.signal.aborted) throw abortedError(endpoint.providerId, ctx.signal.reason);
    };
    yield deltaChunk(label, { role: 'assistant', content: '' });
    for (const piece of a.pieces) {
      await step();
      yield deltaChunk(label, { content: piece });
    }
    for (const [index, call] of a.toolCalls.entries()) {
      await step();
      const { name, arguments: args } = call.function;
      yield deltaChunk(label, {
        tool_calls: [{ index, id: call.id, type: 'function', function: { name, arguments: args } }],
      });
    }
    await step();
    yield deltaChunk(label, {}, a.finishReason);
    yield usageChunk(label, usageOf(a));
  }
}
