/**
 * The registry of wire dialects and of the upstream kinds that speak them: one line per dialect,
 * one per kind. The catalog's provider kinds, `ProviderKind`, the `api_type` a generation records
 * (`ApiType`), which kinds serve embeddings and which take a client's body natively all derive
 * from here. Each dialect's code is its folder, `src/wire/<dialect>/` (docs/architecture.md,
 * "Adding a wire dialect"). This file imports nothing, so every layer may read it.
 */

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

export type WireDialect = keyof typeof DIALECTS;

/** The API surface a generation came in on (`api_surface`). */
export type ApiType = (typeof DIALECTS)[WireDialect]['apiType'];

/** How an upstream kind is called: the dialects it speaks, its credential, whether it has a URL. */
export interface UpstreamKind {
  /** The dialects its endpoints answer; a call in one of them goes to it natively (untranslated). */
  readonly speaks: readonly WireDialect[];
  /** Where the key goes (src/upstream/auth): `authorization: Bearer`, `x-api-key`, or none. */
  readonly auth: 'bearer' | 'x-api-key' | 'none';
  /** False for a provider answered in-process (no base URL, no key). */
  readonly remote: boolean;
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
} as const satisfies Record<string, UpstreamKind>;

export type ProviderKind = keyof typeof UPSTREAM_KINDS;

export const PROVIDER_KINDS = Object.keys(UPSTREAM_KINDS) as readonly ProviderKind[];

export const API_TYPES: readonly ApiType[] = [...new Set(Object.values(DIALECTS).map((d) => d.apiType))];

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
