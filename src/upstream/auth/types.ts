/** An upstream request just before it is sent: everything a signer may need to read. */
export interface OutgoingRequest {
  readonly method: string;
  readonly url: URL;
  /** Lower-case header names, without any credential. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | null;
}

/**
 * Produces the credential headers of one request. Returns synchronously whenever a valid
 * credential is held; a token fetch or refresh happens in the background, and a request waits
 * only when no valid credential exists yet. Errors name the credential problem, never a secret.
 */
export interface UpstreamAuth {
  headersFor(request: OutgoingRequest): Record<string, string> | Promise<Record<string, string>>;
  /** Begins background refresh (token sources); idempotent. */
  start?(): void;
  /** Stops timers; the process may exit afterwards. */
  close?(): void;
}

/**
 * How a kind's credential is sent or obtained: a key as `authorization: Bearer`, `x-api-key`,
 * `api-key` or `x-goog-api-key`, none, an AWS SigV4 signature, or Google access tokens (the
 * renewing ones are built in src/providers/endpoint-auth.ts).
 */
export type UpstreamAuthScheme =
  'bearer' | 'x-api-key' | 'api-key' | 'x-goog-api-key' | 'none' | 'sigv4' | 'google-oauth';
