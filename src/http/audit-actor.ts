import type { FastifyRequest } from 'fastify';
import type { WriteContext } from '../domain/audit/types.js';

/**
 * The write context of a request in an authenticated scope: its key's hash and the member who
 * created that key. Every management write passes it to the service, which records it in the
 * audit log (src/domain/audit).
 */
export function writeContext(request: Pick<FastifyRequest, 'principal'>): WriteContext {
  return { actor: { kind: 'key', memberId: request.principal.creatorUserId, keyHash: request.principal.hash } };
}
