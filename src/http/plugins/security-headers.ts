import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The console's policy: nothing inline, nothing from another origin, never framed. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

type OnSend = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
) => void;

const common = (reply: FastifyReply): void => {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
};

/** Headers of every console page and asset (the scope of the console's files). */
export function installConsoleHeaders(scope: FastifyInstance): void {
  const onSend: OnSend = (_request, reply, payload, done) => {
    common(reply);
    reply.header('content-security-policy', CONSOLE_CSP);
    done(null, payload);
  };
  scope.addHook('onSend', onSend);
}

/**
 * Headers of API answers: no sniffing, no referrer, never framed, and not cached unless the
 * route said otherwise (answers carry keys' usage and other private data).
 */
export function installApiHeaders(scope: FastifyInstance): void {
  const onSend: OnSend = (_request, reply, payload, done) => {
    common(reply);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  };
  scope.addHook('onSend', onSend);
}
