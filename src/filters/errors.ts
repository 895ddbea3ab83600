import { GatewayError } from '../errors/index.js';

/**
 * A custom filter pattern RE2 cannot compile (lookaround, backreferences, syntax errors, too
 * large). A GatewayError (400) so the guardrail write path can throw it as is; `index` is the
 * 0-based position in `content_filters`. The pattern is the caller's own input, so echoing it
 * back in metadata is safe.
 */
export class InvalidPatternError extends GatewayError {
  readonly index: number;
  readonly pattern: string;
  readonly reason: string;

  constructor(index: number, pattern: string, reason: string) {
    super({
      status: 400,
      code: 'invalid_regex_pattern',
      message: `content_filters[${index}].pattern is not a valid pattern: ${reason}`,
      metadata: { field: `content_filters[${index}].pattern`, index, pattern, reason },
    });
    this.name = 'InvalidPatternError';
    this.index = index;
    this.pattern = pattern;
    this.reason = reason;
  }
}

/**
 * A detector threw while scanning (fail-closed: the request must not go upstream unscreened).
 * Carries only the filter name and the error class name: never the scanned text or the
 * original message, which could quote it.
 */
export class FilterFailureError extends GatewayError {
  readonly filter: string;

  constructor(filter: string, cause: unknown) {
    const causeName = cause instanceof Error ? cause.name : typeof cause;
    super({
      // Not a 500: the gateway is fine, it refuses to forward what it could not screen.
      status: 503,
      code: 'content_filter_failure',
      message: `Content filter "${filter}" failed; the request was not forwarded`,
      metadata: { filter, error: causeName },
    });
    this.name = 'FilterFailureError';
    this.filter = filter;
  }
}
