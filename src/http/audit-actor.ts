import type { FastifyRequest } from 'fastify';
import type { WriteContext } from '../domain/audit/types.js';

/**
 * The write context of a request in an authenticated scope: its key's hash and the member who
 * created that key; actor `console` when a console session stands for the key, `key` for a
 * bearer token. Every management write passes it to the service, which records it in the audit
 * log (src/domain/audit).
 */
export function writeContext(request: Pick<FastifyRequest, 'principal' | 'viaConsole'>): WriteContext {
  const kind = request.viaConsole ? 'console' : 'key';
  return { actor: { kind, memberId: request.principal.creatorUserId, keyHash: request.principal.hash } };
}
