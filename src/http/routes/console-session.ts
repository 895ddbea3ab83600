import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors, isGatewayError } from '../../errors/index.js';
import type { Services } from '../../services.js';
import { clearSessionCookie, sessionCookie, sessionSetCookie, type CookieSecure } from '../console/cookie.js';
import { errorResponses } from '../schemas/common.js';
import { presentSession } from '../presenters/console-session.js';
import { SessionEnvelope, SignInBody, SignedOut } from '../schemas/console.js';
import type { App } from '../types.js';

const tags = ['Console'];
const security: Record<string, string[]>[] = [];

/** A wait as people say it: "15 minutes", "1 minute", "40 seconds". */
export function inWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * Console sign-in (public routes: they authenticate themselves). A management key is exchanged
 * for a session cookie; failed attempts are counted per client address and throttled with 429.
 */
export function consoleSessionRoutes(app: App, services: Services, cookieSecure: CookieSecure, keySignIn = true): void {
  const sessions = services.consoleSessions;
  const throttle = services.signInThrottle;
  const clear = (request: FastifyRequest, reply: FastifyReply) =>
    reply.header('set-cookie', clearSessionCookie(request, cookieSecure));

  app.post('/console/session', {
    schema: {
      tags,
      operationId: 'signInConsole',
      summary: 'Exchange a management key for a console session cookie',
      security,
      body: SignInBody,
      response: { 200: SessionEnvelope, ...errorResponses(400, 401, 403, 429, 500) },
    },
    handler: async (request, reply) => {
      if (!keySignIn) throw errors.forbidden('Management-key sign-in is switched off: sign in with SSO');
      // A correct management key signs in from any address; only failures are refused once the
      // address is over its limit (and then without a store read for an unknown key).
      const seconds = throttle.retryAfterSeconds(request.ip);
      try {
        const signedIn = await sessions.signIn(request.body.key, { address: request.ip, guarded: seconds > 0 });
        reply.header('set-cookie', sessionSetCookie(request, cookieSecure, signedIn.token));
        return presentSession(signedIn, sessions.idleMs);
      } catch (error) {
        if (!isGatewayError(error) || (error.status !== 401 && error.status !== 403)) throw error;
        if (seconds === 0) {
          throttle.recordFailure(request.ip);
          throw error;
        }
        throw errors.rateLimited(
          `Too many failed sign-ins from this address: try again in ${inWords(seconds)}`,
          seconds,
        );
      }
    },
  });

  app.get('/console/session', {
    schema: {
      tags,
      operationId: 'getConsoleSession',
      summary: 'The signed-in key and the anti-CSRF token (session cookie only)',
      security,
      response: { 200: SessionEnvelope, ...errorResponses(401, 500) },
    },
    handler: async (request, reply) => {
      const token = sessionCookie(request);
      if (token === undefined) throw errors.invalidAuth('Not signed in');
      try {
        return presentSession(await sessions.resume(token), sessions.idleMs);
      } catch (error) {
        if (isGatewayError(error) && error.status === 401) clear(request, reply);
        throw error;
      }
    },
  });

  app.delete('/console/session', {
    schema: {
      tags,
      operationId: 'signOutConsole',
      summary: 'End the console session (cookie and X-CSRF-Token)',
      security,
      response: { 200: SignedOut, ...errorResponses(403, 500) },
    },
    handler: async (request, reply) => {
      const token = sessionCookie(request);
      if (token !== undefined) {
        const header = request.headers['x-csrf-token'];
        if (!sessions.csrfMatches(token, typeof header === 'string' ? header : undefined))
          throw errors.forbidden('CSRF token missing or invalid: send the X-CSRF-Token header of your session');
        await sessions.signOut(token);
      }
      clear(request, reply);
      return { data: { signed_out: true as const } };
    },
  });
}
