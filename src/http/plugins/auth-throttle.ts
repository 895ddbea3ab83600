import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, isGatewayError } from '../../errors/index.js';
import type { FailureThrottle } from '../../domain/common/failure-throttle.js';
import { bearerToken } from './auth.js';

export interface AuthThrottleOptions {
  throttle: FailureThrottle;
  /** Answers from the cache alone whether a token is a key already proven valid. */
  knows(token: string): boolean;
}

/** The token the request presents, or null when it presents none in a form we read. */
function presentedToken(request: FastifyRequest): string | null {
  try {
    return bearerToken(request);
  } catch {
    return null;
  }
}

/**
 * Throttles failed authentications per client address in an authenticated scope. Register it
 * before `requireKey`: every 401 the scope answers counts as a failure of `request.ip`; once the
 * address is over its limit, a request whose token is not a key this process already trusts is
 * refused with 429 and `Retry-After` before any store read. Valid keys already verified keep
 * working from a throttled address, so an attacker sharing a NAT or proxy cannot lock them out.
 */
export function throttleFailedAuth(scope: FastifyInstance, options: AuthThrottleOptions): void {
  const { throttle } = options;
  if (!throttle.enabled) return;
  scope.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const retryAfter = throttle.retryAfterSeconds(request.ip);
    if (retryAfter === 0) return done();
    const token = presentedToken(request);
    if (token !== null && options.knows(token)) return done();
    done(errors.rateLimited('Too many failed authentications from this address; retry later', retryAfter));
  });
  scope.addHook('onError', (request: FastifyRequest, _reply: FastifyReply, error: Error, done: () => void) => {
    if (isGatewayError(error) && error.status === 401) throttle.recordFailure(request.ip);
    done();
  });
}
