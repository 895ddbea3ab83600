import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OidcConfig } from '../../config/oidc-env.js';
import { SsoSignIn } from '../../domain/console/sso.js';
import type { Services } from '../../services.js';
import { sessionSetCookie, type CookieSecure } from '../console/cookie.js';
import { OidcClient } from '../console/oidc-client.js';
import { flowChecks, flowClearCookie, flowSetCookie } from '../console/oidc-cookie.js';
import { signInRefusedPage } from '../console/sso-pages.js';
import { installConsoleHeaders } from '../plugins/security-headers.js';
import { errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';

export const CALLBACK_PATH = '/console/auth/callback';
const LOGIN_PATH = '/console/auth/login';

export interface ConsoleSsoOptions {
  oidc: OidcConfig | null;
  keySignIn: boolean;
  cookieSecure: CookieSecure;
}

/** `GET /api/v1/console/auth` (public): which sign-in methods the sign-in page offers. */
export function consoleAuthMethodsRoute(app: App, options: Pick<ConsoleSsoOptions, 'oidc' | 'keySignIn'>): void {
  app.get('/console/auth', {
    schema: {
      tags: ['Console'],
      operationId: 'getConsoleSignInMethods',
      summary: 'Sign-in methods of the console: single sign-on and/or the management key',
      security: [],
      response: {
        200: Type.Object({ data: Type.Object({ sso: Type.Boolean(), key_sign_in: Type.Boolean() }) }),
        ...errorResponses(500),
      },
    },
    handler: () => ({ data: { sso: options.oidc !== null, key_sign_in: options.keySignIn } }),
  });
}

const redirectUri = (request: FastifyRequest, oidc: OidcConfig): string =>
  oidc.redirectUrl ?? `${request.protocol}://${request.host}${CALLBACK_PATH}`;

function page(reply: FastifyReply, status: number, title: string, reason: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(signInRefusedPage(title, reason));
}

/**
 * Single sign-on (authorization code + PKCE): `/console/auth/login` sends the browser to the IdP
 * with fresh state, nonce and PKCE verifier kept in a ten-minute HttpOnly cookie;
 * `/console/auth/callback` checks them, matches the person to a member and opens a console
 * session acting as that member. Every refusal is a page that says why.
 */
export async function consoleSsoRoutes(
  app: FastifyInstance,
  services: Services,
  options: ConsoleSsoOptions,
): Promise<void> {
  const oidc = options.oidc;
  if (oidc === null) return;
  const client = new OidcClient(oidc);
  const sso = new SsoSignIn({
    members: services.store.members,
    workspaces: services.store.workspaces,
    memberService: services.members,
    workspaceService: services.workspaces,
    audit: services.store.audit,
    clock: services.clock,
    policy: oidc,
  });
  await app.register(async (scope) => {
    installConsoleHeaders(scope);
    scope.get(LOGIN_PATH, { schema: { hide: true } }, async (request, reply) => {
      let started: Awaited<ReturnType<OidcClient['start']>>;
      try {
        started = await client.start(redirectUri(request, oidc));
      } catch (error) {
        request.log.warn({ reason: (error as Error).message }, 'OIDC discovery failed');
        return page(
          reply,
          503,
          'Single sign-on is unavailable',
          'The identity provider could not be reached. Try again in a moment.',
        );
      }
      reply.header('set-cookie', flowSetCookie(request, options.cookieSecure, started.checks));
      return reply.header('cache-control', 'no-store').redirect(started.url, 302);
    });

    scope.get(CALLBACK_PATH, { schema: { hide: true } }, async (request, reply) => {
      const checks = flowChecks(request);
      reply.header('set-cookie', flowClearCookie(request, options.cookieSecure));
      const query = request.url.slice(request.url.indexOf('?') + 1);
      const params = new URLSearchParams(request.url.includes('?') ? query : '');
      const idpError = params.get('error');
      if (idpError !== null)
        return page(reply, 403, 'Sign-in refused', `The identity provider did not sign you in (${idpError}).`);
      if (checks === null)
        return page(
          reply,
          400,
          'Sign-in expired',
          'This sign-in expired or was started in another browser. Start again.',
        );
      let claims;
      try {
        const callback = new URL(redirectUri(request, oidc));
        callback.search = params.toString();
        claims = await client.finish(callback, checks);
      } catch (error) {
        request.log.warn({ reason: (error as Error).message }, 'OIDC callback refused');
        return page(reply, 400, 'Sign-in failed', 'The identity provider’s answer could not be verified. Start again.');
      }
      const outcome = await sso.resolve(claims);
      if (!outcome.ok) return page(reply, 403, 'You cannot sign in to this console', outcome.reason);
      const signedIn = await services.consoleSessions.signInMember(outcome.member);
      reply.header('set-cookie', [
        flowClearCookie(request, options.cookieSecure),
        sessionSetCookie(request, options.cookieSecure, signedIn.token),
      ]);
      return reply.header('cache-control', 'no-store').redirect('/console/', 302);
    });
  });
}
