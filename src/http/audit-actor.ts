import type { FastifyRequest } from 'fastify';
import type { WriteContext } from '../domain/audit/types.js';

/**
 * The write context of a request in an authenticated scope: its key's hash and the member who
 * created that key, or the member of a single sign-on console session. Every management write passes it to the service, which records it in the
 * audit log (src/domain/audit).
 */
export function writeContext(request: Pick<FastifyRequest, 'principal' | 'person'>): WriteContext {
  // A person signed in by single sign-on writes as themselves, with no key.
  if (request.person !== null) return { actor: { kind: 'console', memberId: request.person.member.id, keyHash: null } };
  return { actor: { kind: 'key', memberId: request.principal.creatorUserId, keyHash: request.principal.hash } };
}
