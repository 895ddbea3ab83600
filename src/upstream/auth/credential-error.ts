import { sanitizeMessage, UpstreamError } from '../upstream-error.js';

/**
 * The error of a credential that could not be obtained or used: a 502 naming the provider and
 * the problem (the next endpoint may still serve the call). The message passes the same
 * sanitiser as upstream errors, with every known secret of the credential scrubbed as well. The
 * library's own error is not attached as the cause: it may carry request bodies or headers.
 */
export function credentialError(options: {
  providerId: string;
  problem: string;
  secrets?: readonly (string | null | undefined)[];
}): UpstreamError {
  let detail = options.problem;
  for (const secret of options.secrets ?? []) {
    if (typeof secret === 'string' && secret.length >= 4) detail = detail.split(secret).join('***');
  }
  return new UpstreamError({
    kind: 'connection',
    status: 502,
    code: 'provider_unavailable',
    message: `Upstream credentials unavailable for provider ${options.providerId}: ${sanitizeMessage(detail, null)}`,
    providerId: options.providerId,
    retryable: true,
    providerCode: 'credentials',
  });
}

/** The message of whatever a credential library threw (never its cause chain, which may hold request bodies). */
export function describe(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}
