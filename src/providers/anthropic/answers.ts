import type { CanonicalChatRequest, CanonicalChatResponse, CanonicalChunk } from '../../canonical/index.js';
import { protocolError, type UpstreamResponse } from '../../upstream/index.js';
import type { CallContext, ProviderEndpointConfig } from '../../wire/adapter.js';
import { messagesResponse } from '../../wire/anthropic-messages/outbound/response.js';
import { anthropicChunks } from '../../wire/anthropic-messages/outbound/stream.js';
import { primeStream } from '../../wire/primed-stream.js';

/**
 * A chat's answer read from a Messages API response, wherever Claude was called (Anthropic's
 * API, Vertex AI's rawPredict).
 */
export async function claudeAnswer(
  res: UpstreamResponse,
  endpoint: ProviderEndpointConfig,
  req: CanonicalChatRequest,
  ctx: CallContext,
): Promise<CanonicalChatResponse> {
  const out = messagesResponse(await res.json(), { model: req.model, id: `gen-${ctx.requestId}` });
  if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without content');
  return out;
}

/** A chat's stream read from a Messages API event stream, primed so early errors can fall back. */
export function claudeStream(
  res: UpstreamResponse,
  endpoint: ProviderEndpointConfig,
  req: CanonicalChatRequest,
  ctx: CallContext,
): Promise<AsyncIterable<CanonicalChunk>> {
  return primeStream(
    anthropicChunks(res, {
      providerId: endpoint.providerId,
      apiKey: endpoint.apiKey,
      fallbackId: `gen-${ctx.requestId}`,
      model: req.model,
    }),
  );
}
