import type { FastifyRequest } from 'fastify';
import type { WriteContext } from '../domain/audit/types.js';

/**
 * The write context of a request in an authenticated scope: its key's hash and the member who
 * created that key, or the member of a single sign-on console session; actor `console` when a
 * console session stands for the key or the person, `key` for a bearer token. Every management
 * write passes it to the service, which records it in the audit log (src/domain/audit).
 */
export function writeContext(request: Pick<FastifyRequest, 'principal' | 'person' | 'viaConsole'>): WriteContext {
  // A person signed in by single sign-on writes as themselves, with no key.
  if (request.person !== null) return { actor: { kind: 'console', memberId: request.person.member.id, keyHash: null } };
  const kind = request.viaConsole ? 'console' : 'key';
  return { actor: { kind, memberId: request.principal.creatorUserId, keyHash: request.principal.hash } };
}
