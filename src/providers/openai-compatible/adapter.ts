import type {
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalCompletionChunk,
  CanonicalCompletionRequest,
  CanonicalCompletionResponse,
  CanonicalEmbeddingsRequest,
  CanonicalEmbeddingsResponse,
  NativeUpstreamRequest,
} from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import { responsesUpstreamBody } from '../../wire/openai-responses/outbound/request.js';
import { nativeResponse } from '../../wire/openai-responses/outbound/response.js';
import { nativeResponseChunks } from '../../wire/openai-responses/outbound/stream.js';
import { responsesTexts } from '../../wire/openai-responses/texts.js';
import { completionPrompt, estimatedUsage, messagesText, parseOpenAiUsage, usageChunk } from '../../canonical/index.js';
import { protocolError, type UpstreamHttpClient, type UpstreamResponse } from '../../upstream/index.js';
import { int, isRecord, nowSeconds, str, type JsonRecord } from '../../canonical/json.js';
import { primeStream, type ClosableIterator } from '../../wire/primed-stream.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../wire/adapter.js';
import { postTo, type WireTarget } from '../wire-target.js';
import { chatBody, completionBody } from '../../wire/openai-chat/outbound/request.js';
import { wireTarget } from './target.js';
import { chatChunk, chatResponse, completionChoices } from '../../wire/openai-chat/outbound/response.js';
import { relayOpenAiStream } from '../../wire/openai-chat/outbound/stream-relay.js';
import { embeddingsBody, embeddingsResponse } from '../../wire/openai-embeddings/outbound.js';

/** The operations of OpenAI's wire, as paths under an OpenAI-style base URL. */
export type OpenAiPath = '/chat/completions' | '/completions' | '/embeddings' | '/responses';

/**
 * How a vendor that speaks OpenAI's wire at other URLs is reached (Azure OpenAI): the target of
 * an operation for the call's upstream model, and the chat body cut to the fields it accepts.
 */
export interface OpenAiRouting {
  target(endpoint: ProviderEndpointConfig, path: OpenAiPath, stream: boolean, model: string): WireTarget;
  chatBody?(body: JsonRecord): JsonRecord;
}

const OPENAI_ROUTING: OpenAiRouting = { target: (endpoint, path, stream) => wireTarget(endpoint, path, stream) };

/**
 * The one adapter for every OpenAI-style vendor (OpenAI, OpenRouter, Groq, Together, Ollama…).
 * Vendors differ only by config: base URL, key, extra headers.
 */
export class OpenAiCompatibleAdapter implements ProviderAdapter {
  readonly kind = 'openai' as const;

  constructor(
    private readonly http: UpstreamHttpClient,
    private readonly routing: OpenAiRouting = OPENAI_ROUTING,
  ) {}

  private async post(
    endpoint: ProviderEndpointConfig,
    path: OpenAiPath,
    body: JsonRecord,
    stream: boolean,
    ctx: CallContext,
  ): Promise<UpstreamResponse> {
    const target = this.routing.target(endpoint, path, stream, typeof body.model === 'string' ? body.model : '');
    const sent =
      path === '/chat/completions' && this.routing.chatBody !== undefined ? this.routing.chatBody(body) : body;
    return postTo(this.http, endpoint, target, JSON.stringify(sent), ctx);
  }

  async chat(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    const res = await this.post(endpoint, '/chat/completions', chatBody(req, false), false, ctx);
    const body = await res.json();
    const out = chatResponse(body, {
      model: req.model,
      id: `gen-${ctx.requestId}`,
      prompt: () => messagesText(req.messages),
    });
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without choices');
    return out;
  }

  async chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const res = await this.post(endpoint, '/chat/completions', chatBody(req, true), true, ctx);
    return primeStream(this.chatChunks(res, endpoint, req, ctx));
  }

  private chatChunks(
    res: UpstreamResponse,
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): ClosableIterator<CanonicalChunk> {
    return relayOpenAiStream<CanonicalChunk>({
      res,
      endpoint,
      meta: { id: `gen-${ctx.requestId}`, model: req.model, created: nowSeconds() },
      step: (event, meta) => {
        const chunk = chatChunk(event, meta);
        meta.id = chunk.id;
        meta.model = chunk.model;
        meta.created = chunk.created;
        const usage = chunk.usage ?? null;
        delete chunk.usage; // held back: usage goes out in the last chunk only
        const finished = chunk.choices.some((choice) => choice.finish_reason !== null);
        return { chunk: chunk.choices.length === 0 ? null : chunk, usage, finished };
      },
      last: (meta, usage) => {
        if (usage !== null) return usageChunk(meta, usage);
        return { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, choices: [] };
      },
    });
  }

  /** A Responses body passed through natively (`model` already the upstream's) to `/responses`. */
  async native(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    const res = await this.post(endpoint, '/responses', responsesUpstreamBody(responsesOnly(req), false), false, ctx);
    const out = nativeResponse(await res.json(), {
      id: `resp-${ctx.requestId}`,
      model: str(req.body.model) ?? '',
      prompt: () =>
        responsesTexts(req.body)
          .segments.map((s) => s.text)
          .join('\n'),
    });
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without output');
    return out;
  }

  /** The same, streamed: primed like chatStream, so errors before the first event can fall back. */
  async nativeStream(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const res = await this.post(endpoint, '/responses', responsesUpstreamBody(responsesOnly(req), true), true, ctx);
    return primeStream(nativeResponseChunks(res, endpoint.providerId, endpoint.apiKey, str(req.body.model) ?? ''));
  }

  async embeddings(
    endpoint: ProviderEndpointConfig,
    req: CanonicalEmbeddingsRequest,
    ctx: CallContext,
  ): Promise<CanonicalEmbeddingsResponse> {
    const res = await this.post(endpoint, '/embeddings', embeddingsBody(req), false, ctx);
    const out = embeddingsResponse(await res.json(), req, `gen-${ctx.requestId}`);
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without embeddings');
    return out;
  }

  async completion(
    endpoint: ProviderEndpointConfig,
    req: CanonicalCompletionRequest,
    ctx: CallContext,
  ): Promise<CanonicalCompletionResponse> {
    const res = await this.post(endpoint, '/completions', completionBody(req, false), false, ctx);
    const body = await res.json();
    if (!isRecord(body) || !Array.isArray(body.choices))
      throw protocolError(endpoint.providerId, 'Provider returned a body without choices');
    const choices = completionChoices(body);
    return {
      id: str(body.id) ?? `gen-${ctx.requestId}`,
      object: 'text_completion',
      created: int(body.created) ?? nowSeconds(),
      model: str(body.model) ?? req.model,
      choices,
      usage: parseOpenAiUsage(body.usage) ?? estimatedUsage(completionPrompt(req), choices.map((c) => c.text).join('')),
    };
  }

  async completionStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalCompletionRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalCompletionChunk>> {
    const res = await this.post(endpoint, '/completions', completionBody(req, true), true, ctx);
    return primeStream(this.completionChunks(res, endpoint, req, ctx));
  }

  private completionChunks(
    res: UpstreamResponse,
    endpoint: ProviderEndpointConfig,
    req: CanonicalCompletionRequest,
    ctx: CallContext,
  ): ClosableIterator<CanonicalCompletionChunk> {
    return relayOpenAiStream<CanonicalCompletionChunk>({
      res,
      endpoint,
      meta: { id: `gen-${ctx.requestId}`, model: req.model, created: nowSeconds() },
      step: (event, meta) => {
        meta.id = str(event.id) ?? meta.id;
        meta.model = str(event.model) ?? meta.model;
        meta.created = int(event.created) ?? meta.created;
        const choices = completionChoices(event);
        const chunk: CanonicalCompletionChunk | null =
          choices.length === 0
            ? null
            : { id: meta.id, object: 'text_completion', created: meta.created, model: meta.model, choices };
        return {
          chunk,
          usage: parseOpenAiUsage(event.usage),
          finished: choices.some((c) => c.finish_reason !== null),
        };
      },
      last: (meta, usage) => {
        const chunk: CanonicalCompletionChunk = {
          id: meta.id,
          object: 'text_completion',
          created: meta.created,
          model: meta.model,
          choices: [],
        };
        if (usage !== null) chunk.usage = usage;
        return chunk;
      },
    });
  }
}

/** The body of a native call: Responses bodies are this kind's own (chat, completions and embeddings are canonical). */
function responsesOnly(req: NativeUpstreamRequest): JsonRecord {
  if (req.dialect !== 'openai-responses') throw errors.internal(new Error(`no native ${req.dialect} here`));
  return req.body;
}
