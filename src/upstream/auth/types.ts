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
