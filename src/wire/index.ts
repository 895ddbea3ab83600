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
  // Upstream-only formats (no client comes in on them).
  'bedrock-converse': { apiType: null },
  'bedrock-invoke': { apiType: null },
} as const;

export type WireDialect = keyof typeof DIALECTS;

/** The API surface a generation came in on (`api_surface`). */
export type ApiType = NonNullable<(typeof DIALECTS)[WireDialect]['apiType']>;

/** How an upstream kind is called: the dialects it speaks, its credential, whether it has a URL. */
export interface UpstreamKind {
  /** The dialects its endpoints answer; a call in one of them goes to it natively (untranslated). */
  readonly speaks: readonly WireDialect[];
  /**
   * Where the key goes (src/upstream/auth): `authorization: Bearer`, `x-api-key`, `api-key`, none,
   * or an AWS SigV4 signature (a configured key is then a bearer token instead).
   */
  readonly auth: 'bearer' | 'x-api-key' | 'api-key' | 'none' | 'sigv4';
  /** False for a provider answered in-process (no base URL, no key). */
  readonly remote: boolean;
  /** Upstream models of this kind that take a client's Messages body natively (Claude on a cloud). */
  readonly nativeMessages?: RegExp;
}

/** The catalog's provider kinds. */
export const UPSTREAM_KINDS = {
  openai: { speaks: ['openai-chat', 'openai-completions', 'openai-embeddings'], auth: 'bearer', remote: true },
  anthropic: { speaks: ['anthropic-messages'], auth: 'x-api-key', remote: true },
  demo: { speaks: ['openai-chat', 'openai-embeddings'], auth: 'none', remote: false },
  // Azure OpenAI: OpenAI's chat and embeddings wire at Azure's URLs; the key in `api-key`, or an
  // Entra ID token instead (the provider's `auth: entra`, src/providers/endpoint-auth.ts).
  azure: { speaks: ['openai-chat', 'openai-embeddings'], auth: 'api-key', remote: true },
  bedrock: {
    speaks: ['bedrock-converse', 'bedrock-invoke'],
    auth: 'sigv4',
    remote: true,
    nativeMessages: /(^|[./:])anthropic\./,
  },
} as const satisfies Record<string, UpstreamKind>;

export type ProviderKind = keyof typeof UPSTREAM_KINDS;

export const PROVIDER_KINDS = Object.keys(UPSTREAM_KINDS) as readonly ProviderKind[];

export const API_TYPES: readonly ApiType[] = [
  ...new Set(Object.values(DIALECTS).flatMap((d): ApiType[] => (d.apiType === null ? [] : [d.apiType]))),
];

/** The dialects that carry embeddings: a kind speaking one can serve an embeddings model. */
const EMBEDDING_DIALECTS: readonly WireDialect[] = ['openai-embeddings', 'bedrock-invoke'];

/** Whether endpoints of this kind answer calls in this dialect as they are. */
export function speaks(kind: ProviderKind, dialect: WireDialect): boolean {
  return (UPSTREAM_KINDS[kind].speaks as readonly WireDialect[]).includes(dialect);
}

/** Whether endpoints of this kind can serve embeddings models. */
export function servesEmbeddings(kind: ProviderKind): boolean {
  return EMBEDDING_DIALECTS.some((dialect) => speaks(kind, dialect));
}

/**
 * Whether an endpoint of this kind serving `upstreamModel` takes a client's Messages body as it is
 * (every Anthropic field kept) rather than translated into a chat.
 */
export function takesMessagesNatively(kind: ProviderKind, upstreamModel: string): boolean {
  const entry: UpstreamKind = UPSTREAM_KINDS[kind];
  return speaks(kind, 'anthropic-messages') || (entry.nativeMessages?.test(upstreamModel) ?? false);
}
