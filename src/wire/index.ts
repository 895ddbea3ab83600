/**
 * The registry of wire dialects and of the upstream kinds that speak them: one line per dialect,
 * one per kind. The catalog's provider kinds, `ProviderKind`, the `api_type` a generation records
 * (`ApiType`), which kinds serve embeddings and which take a client's body natively all derive
 * from here. Each dialect's code is its folder, `src/wire/<dialect>/` (docs/architecture.md,
 * "Adding a wire dialect"). This file imports only a type of the transport, so every layer may read it.
 */
import type { UpstreamAuthScheme } from '../upstream/auth/types.js';

/**
 * Every wire format, with the API surface recorded for a call that comes in on it (a
 * generation's `api_surface`; OpenRouter's `api_type` enum is derived from it when presented).
 */
export const DIALECTS = {
  'openai-chat': { apiType: 'chat' },
  'openai-completions': { apiType: 'completions' },
  'openai-responses': { apiType: 'responses' },
  'openai-embeddings': { apiType: 'embeddings' },
  'anthropic-messages': { apiType: 'messages' },
} as const;

/** Wire formats Switchyard only speaks to upstreams (no client calls in them, so no API surface). */
export const UPSTREAM_DIALECTS = ['bedrock-converse', 'bedrock-invoke', 'gemini-generate'] as const;

export type WireDialect = keyof typeof DIALECTS | (typeof UPSTREAM_DIALECTS)[number];

/** The API surface a generation came in on (`api_surface`). */
export type ApiType = (typeof DIALECTS)[keyof typeof DIALECTS]['apiType'];

/** How an upstream kind is called: the dialects it speaks, its credential, whether it has a URL. */
export interface UpstreamKind {
  /** The dialects its endpoints answer; a call in one of them goes to it natively (untranslated). */
  readonly speaks: readonly WireDialect[];
  /**
   * The credential (src/upstream/auth): the key as `authorization: Bearer`, `x-api-key`,
   * `api-key` or `x-goog-api-key`, none, an AWS SigV4 signature (a configured key is then a bearer
   * token instead), or Google access tokens.
   */
  readonly auth: UpstreamAuthScheme;
  /** False for a provider answered in-process (no base URL, no key). */
  readonly remote: boolean;
  /** Serves `/embeddings` through its own wire (when it does not speak `openai-embeddings`). */
  readonly embeds?: boolean;
  /** Upstream models (by name) that take a client's Messages body natively though the kind does not. */
  readonly nativeMessages?: RegExp;
  /**
   * Dialects of `speaks` that only an endpoint whose catalog entry declares them takes natively
   * (`native_responses: true`): servers of the kind's main dialect (vLLM, Ollama… for `openai`)
   * need not serve them. Undeclared, such a call is translated as for any other kind.
   */
  readonly declared?: readonly WireDialect[];
}

/** The catalog's provider kinds. */
export const UPSTREAM_KINDS = {
  openai: {
    speaks: ['openai-chat', 'openai-completions', 'openai-embeddings', 'openai-responses'],
    auth: 'bearer',
    remote: true,
    declared: ['openai-responses'],
  },
  anthropic: { speaks: ['anthropic-messages'], auth: 'x-api-key', remote: true },
  demo: { speaks: ['openai-chat', 'openai-embeddings'], auth: 'none', remote: false },
  // Azure OpenAI: OpenAI's chat and embeddings wire at Azure's URLs; the key in `api-key`, or an
  // Entra ID token instead (the provider's `auth: entra`, src/providers/endpoint-auth.ts). The
  // Responses API natively only where declared, on the v1 API (src/catalog/provider-fields/azure.ts).
  azure: {
    speaks: ['openai-chat', 'openai-embeddings', 'openai-responses'],
    auth: 'api-key',
    remote: true,
    declared: ['openai-responses'],
  },
  bedrock: {
    speaks: ['bedrock-converse', 'bedrock-invoke'],
    auth: 'sigv4',
    remote: true,
    embeds: true, // Titan and Cohere through InvokeModel
    nativeMessages: /(^|[./:])anthropic\./,
  },
  // The Gemini API (API key) and Vertex AI (Google OAuth; its Claude models take Messages natively).
  gemini: { speaks: ['gemini-generate'], auth: 'x-goog-api-key', remote: true, embeds: true },
  vertex: {
    speaks: ['gemini-generate'],
    auth: 'google-oauth',
    remote: true,
    embeds: true, // Google's embedding models through :predict
    nativeMessages: /^publishers\/anthropic\//,
  },
} as const satisfies Record<string, UpstreamKind>;

export type ProviderKind = keyof typeof UPSTREAM_KINDS;

export const PROVIDER_KINDS = Object.keys(UPSTREAM_KINDS) as readonly ProviderKind[];

export const API_TYPES: readonly ApiType[] = [...new Set(Object.values(DIALECTS).map((d) => d.apiType))];

/** Whether endpoints of this kind serve embeddings (in OpenAI's dialect or their own). */
export function servesEmbeddings(kind: ProviderKind): boolean {
  const entry: UpstreamKind = UPSTREAM_KINDS[kind];
  return entry.embeds === true || speaks(kind, 'openai-embeddings');
}

/** Whether endpoints of this kind answer calls in this dialect as they are. */
export function speaks(kind: ProviderKind, dialect: WireDialect): boolean {
  return (UPSTREAM_KINDS[kind].speaks as readonly WireDialect[]).includes(dialect);
}

/**
 * The dialects one endpoint of this kind takes natively: the kind's, less those it speaks only
 * when the catalog entry declares them (`declared`) and this one did not.
 */
export function nativeDialects(kind: ProviderKind, declared: readonly WireDialect[]): readonly WireDialect[] {
  const entry: UpstreamKind = UPSTREAM_KINDS[kind];
  return entry.speaks.filter((d) => entry.declared?.includes(d) !== true || declared.includes(d));
}

/**
 * Whether a call in `dialect` to one endpoint goes to it natively: its provider takes the dialect
 * (`providerDialects`, from nativeDialects), or it is a Messages call and the endpoint's upstream
 * model is one its kind passes Messages to natively (Claude on Bedrock or Vertex AI).
 */
export function takesNatively(
  endpoint: { kind: ProviderKind; dialects: readonly WireDialect[]; upstreamModel: string },
  dialect: WireDialect,
): boolean {
  if (endpoint.dialects.includes(dialect)) return true;
  const entry: UpstreamKind = UPSTREAM_KINDS[endpoint.kind];
  return dialect === 'anthropic-messages' && (entry.nativeMessages?.test(endpoint.upstreamModel) ?? false);
}
