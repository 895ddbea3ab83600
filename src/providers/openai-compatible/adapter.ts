import type {
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalCompletionChunk,
  CanonicalCompletionRequest,
  CanonicalCompletionResponse,
  CanonicalUsage,
} from '../../canonical/index.js';
import { parseOpenAiUsage } from '../../canonical/index.js';
import { failFromResponse, protocolError, type UpstreamHttpClient, type UpstreamResponse } from '../../upstream/index.js';
import { int, isRecord, nowSeconds, str } from '../json.js';
import { primeStream } from '../primed-stream.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../types.js';
import { chatBody, completionBody, endpointUrl, requestHeaders } from './wire-request.js';
import { chatChunk, chatResponse, completionChoices, deltaText, estimatedUsage, promptText } from './wire-response.js';
import { openAiSseData } from './sse-data.js';

/**
 * The one adapter for every OpenAI-style vendor (OpenAI, OpenRouter, Groq, Together, Ollama…).
 * Vendors differ only by config: base URL, key, extra headers.
 */
export class OpenAiCompatibleAdapter implements ProviderAdapter {
  readonly kind = 'openai' as const;

  constructor(private readonly http: UpstreamHttpClient) {}

  private async post(endpoint: ProviderEndpointConfig, path: string, body: unknown, stream: boolean, ctx: CallContext): Promise<UpstreamResponse> {
    const call = {
      url: endpointUrl(endpoint, path),
      headers: requestHeaders(endpoint, stream),
      body: JSON.stringify(body),
      providerId: endpoint.providerId,
      apiKey: endpoint.apiKey,
      timeouts: endpoint.timeouts,
      signal: ctx.signal,
    };
    const res = await this.http.send(call);
    if (res.status < 200 || res.status > 299) await failFromResponse(res, call);
    return res;
  }

  async chat(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<CanonicalChatResponse> {
    const res = await this.post(endpoint, '/chat/completions', chatBody(req, false), false, ctx);
    const body = await res.json();
    const out = chatResponse(body, { model: req.model, id: `gen-${ctx.requestId}`, prompt: promptText(req.messages) });
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without choices');
    return out;
  }

  async chatStream(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<AsyncIterable<CanonicalChunk>> {
    const res = await this.post(endpoint, '/chat/completions', chatBody(req, true), true, ctx);
    return primeStream(this.chatChunks(res, endpoint, req, ctx));
  }

  private async *chatChunks(
    res: UpstreamResponse,
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): AsyncGenerator<CanonicalChunk, void, undefined> {
    const meta = { id: `gen-${ctx.requestId}`, model: req.model, created: nowSeconds() };
    let usage: CanonicalUsage | null = null;
    let sawFinish = false;
    let output = '';
    const data = openAiSseData(res, endpoint);
    try {
      for (;;) {
        const step = await data.next();
        if (step.done === true) {
          if (!step.value && !sawFinish) throw protocolError(endpoint.providerId, 'Provider stream ended before completion');
          break;
        }
        const chunk = chatChunk(step.value, meta);
        meta.id = chunk.id;
        meta.model = chunk.model;
        meta.created = chunk.created;
        if (chunk.usage !== undefined) {
          usage = chunk.usage; // held back: usage goes out in the last chunk only
          delete chunk.usage;
        }
        if (chunk.choices.length === 0) continue;
        for (const choice of chunk.choices) {
          output += deltaText(choice.delta);
          if (choice.finish_reason !== null) sawFinish = true;
        }
        yield chunk;
      }
    } finally {
      await data.return(false);
    }
    yield {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      choices: [],
      usage: usage ?? estimatedUsage(promptText(req.messages), output),
    };
  }

  async completion(endpoint: ProviderEndpointConfig, req: CanonicalCompletionRequest, ctx: CallContext): Promise<CanonicalCompletionResponse> {
    const res = await this.post(endpoint, '/completions', completionBody(req, false), false, ctx);
    const body = await res.json();
    if (!isRecord(body) || !Array.isArray(body.choices)) throw protocolError(endpoint.providerId, 'Provider returned a body without choices');
    const choices = completionChoices(body);
    return {
      id: str(body.id) ?? `gen-${ctx.requestId}`,
      object: 'text_completion',
      created: int(body.created) ?? nowSeconds(),
      model: str(body.model) ?? req.model,
      choices,
      usage: parseOpenAiUsage(body.usage) ?? estimatedUsage(promptOf(req), choices.map((c) => c.text).join('')),
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

  private async *completionChunks(
    res: UpstreamResponse,
    endpoint: ProviderEndpointConfig,
    req: CanonicalCompletionRequest,
    ctx: CallContext,
  ): AsyncGenerator<CanonicalCompletionChunk, void, undefined> {
    const meta = { id: `gen-${ctx.requestId}`, model: req.model, created: nowSeconds() };
    let usage: CanonicalUsage | null = null;
    let sawFinish = false;
    let output = '';
    const data = openAiSseData(res, endpoint);
    try {
      for (;;) {
        const step = await data.next();
        if (step.done === true) {
          if (!step.value && !sawFinish) throw protocolError(endpoint.providerId, 'Provider stream ended before completion');
          break;
        }
        const body = step.value;
        meta.id = str(body.id) ?? meta.id;
        meta.model = str(body.model) ?? meta.model;
        meta.created = int(body.created) ?? meta.created;
        usage = parseOpenAiUsage(body.usage) ?? usage;
        const choices = completionChoices(body);
        if (choices.length === 0) continue;
        for (const c of choices) {
          output += c.text;
          if (c.finish_reason !== null) sawFinish = true;
        }
        yield { id: meta.id, object: 'text_completion', created: meta.created, model: meta.model, choices };
      }
    } finally {
      await data.return(false);
    }
    yield {
      id: meta.id,
      object: 'text_completion',
      created: meta.created,
      model: meta.model,
      choices: [],
      usage: usage ?? estimatedUsage(promptOf(req), output),
    };
  }
}

function promptOf(req: CanonicalCompletionRequest): string {
  return typeof req.prompt === 'string' ? req.prompt : req.prompt.join('\n');
}
