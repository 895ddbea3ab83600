import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, isGatewayError } from '../../errors/index.js';
import type { FailureThrottle } from '../../domain/common/failure-throttle.js';

/** What the authentication hook asks of the failed-authentication throttle. */
export type AddressThrottle = Pick<FailureThrottle, 'retryAfterSeconds' | 'size'>;

/**
 * The answer to a failed authentication from an address `retryAfter` seconds from being allowed
 * again (0: not throttled): a 401 becomes 429 with `Retry-After`; anything else stays as it is.
 * Only failing credentials are ever refused this way: a valid key is verified and accepted from
 * any address (the key authenticator decides unknown tokens from memory, so a throttled address
 * costs the store nothing).
 */
export function throttledRefusal(error: Error, retryAfter: number): Error {
  if (retryAfter === 0 || !isGatewayError(error) || error.status !== 401) return error;
  return errors.rateLimited('Too many failed authentications from this address; retry later', retryAfter);
}

/**
 * Counts failed authentications per client address in an authenticated scope: every 401 the
 * scope answers counts against `request.ip` (which `SWITCHYARD_TRUST_PROXY` makes the client's
 * own address behind a proxy). `requireKey` turns the failures of an address over the limit into
 * 429s (`throttledRefusal`).
 */
export function countFailedAuth(scope: FastifyInstance, throttle: FailureThrottle): void {
  if (!throttle.enabled) return;
  scope.addHook('onError', (request: FastifyRequest, _reply: FastifyReply, error: Error, done: () => void) => {
    if (isGatewayError(error) && error.status === 401) throttle.recordFailure(request.ip);
    done();
  });
}
