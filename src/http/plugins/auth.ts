import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors/index.js';
import type { KeyAuthenticator } from '../../domain/keys/authenticator.js';
import type { KeyKind, KeyRecord } from '../../domain/keys/types.js';
import type { ConsoleSession, ConsoleSessions } from '../../domain/console/sessions.js';
import type { Person } from '../../domain/console/person.js';
import { CSRF_HEADER, sessionCookie } from '../console/cookie.js';
import { authorizePerson, type PermissionLookups } from '../permissions/enforce.js';
import { throttledRefusal, type AddressThrottle } from './auth-throttle.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The key that authenticated this request; set by the scope's onRequest hook. For a person's
     * console session it is the stand-in of `personPrincipal`.
     */
    principal: KeyRecord;
    /** The member behind a console session signed in by single sign-on; null otherwise. */
    person: Person | null;
    /** True when a console session (not a bearer token) stands for `principal`. */
    viaConsole: boolean;
  }
}

/**
 * What handlers see as the principal of a person's session: management-level (the permission
 * table has already narrowed what the person may do), acting as the member (`creatorUserId`),
 * in the default workspace, and with no key hash (a person holds no key).
 */
export function personPrincipal(person: Person): KeyRecord {
  return {
    hash: '',
    tokenDigest: '',
    kind: 'management',
    name: person.member.email,
    label: '',
    workspaceId: person.defaultWorkspaceId,
    creatorUserId: person.member.id,
    disabled: false,
    limit: null,
    limitReset: null,
    includeByokInLimit: false,
    expiresAt: null,
    externalUser: null,
    createdAt: person.member.createdAt,
    updatedAt: null,
  };
}

/** Which keys a route scope admits. */
export type AuthLevel = 'management' | 'api' | 'any';

const BEARER = 'Bearer ';
const WHITESPACE = /\s/;

/**
 * The token of an `Authorization: Bearer <token>` header, or else of an `x-api-key` header;
 * 401 errors for anything else.
 */
export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string {
  const header = request.headers.authorization;
  // The usual form, exactly "Bearer <token>", without the regex below (same answer, cheaper).
  if (header !== undefined && header.startsWith(BEARER)) {
    const token = header.slice(BEARER.length);
    if (token !== '' && !WHITESPACE.test(token)) return token;
  }
  if (header === undefined || header.trim() === '') {
    // Anthropic's SDKs (and Claude Code with ANTHROPIC_API_KEY) send the key as `x-api-key`.
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey !== '' && !WHITESPACE.test(apiKey)) return apiKey;
    throw errors.missingAuth();
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null || match[1] === undefined) throw errors.invalidAuth('Authorization header must be "Bearer <key>"');
  return match[1];
}

function admits(level: AuthLevel, kind: KeyKind): boolean {
  return level === 'any' || (level === 'management' ? kind === 'management' : kind === 'api');
}

/**
 * The management key behind a console session cookie, for a request without an Authorization
 * header; null when there is no session cookie. The cookie counts only with the session's
 * anti-CSRF header (403 otherwise), and only where `requireKey` passes `sessions`.
 */
function sessionKey(request: FastifyRequest, sessions: ConsoleSessions): Promise<ConsoleSession> | null {
  if (request.headers.authorization !== undefined) return null;
  const token = sessionCookie(request);
  if (token === undefined) return null;
  const header = request.headers[CSRF_HEADER];
  if (!sessions.csrfMatches(token, typeof header === 'string' ? header : undefined))
    return Promise.reject(
      errors.forbidden('CSRF token missing or invalid: send the X-CSRF-Token header of your session'),
    );
  return sessions.resume(token);
}

const GUARDED = Object.freeze({ guarded: true });
const UNGUARDED = Object.freeze({ guarded: false });

/** Answers a failed authentication: a 401 from a throttled address becomes a 429, sent after `delayMs`. */
function refuse(error: Error, retryAfter: number, delayMs: number, done: (error?: Error) => void): void {
  const refusal = throttledRefusal(error, retryAfter);
  if (refusal === error || delayMs === 0) done(refusal);
  else setTimeout(() => done(refusal), delayMs);
}

export interface RequireKeyOptions {
  authenticator: KeyAuthenticator;
  level: AuthLevel;
  /** Console sessions (cookie plus anti-CSRF header) stand for their management key; never for model calls. */
  sessions?: ConsoleSessions;
  /** The failed-authentication throttle: a failing credential from an address over it gets 429. */
  throttle?: AddressThrottle;
  /** How long a 429 for a failing credential waits before it is sent (a looping client slows down). */
  refusalDelayMs?: number;
  /** The permission table consulted for a person's console session (single sign-on). */
  permissions?: { lookups: PermissionLookups; prefix: string };
}

/**
 * Makes `scope` an authenticated scope: every route registered in it requires a key of the
 * given level. Handlers never check keys themselves. With `sessions`, a console session (cookie
 * plus anti-CSRF header) stands for its management key; model-call scopes never pass it.
 */
export function requireKey(scope: FastifyInstance, options: RequireKeyOptions): void {
  const { authenticator, level, sessions, throttle, permissions } = options;
  scope.decorateRequest('principal', null as unknown as KeyRecord);
  scope.decorateRequest('person', null);
  scope.decorateRequest('viaConsole', false);
  // Only a console session brings a person, and a model-call ('api') scope admits none: there the
  // hook would run on every call and never act.
  if (permissions !== undefined && sessions !== undefined && level !== 'api')
    // Before validation (the body is parsed by then): a person without the role learns nothing
    // about the route's input rules, and is refused before any handler runs.
    scope.addHook('preValidation', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      if (request.person === null) {
        done();
        return;
      }
      authorizePerson(request, request.person, permissions).then(() => done(), done);
    });
  const delayMs = options.refusalDelayMs ?? 0;
  // Callback style: no promise of the hook's own (an async hook makes one per request), and none
  // at all for a cached key (`authenticateNow`).
  scope.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    // An address can be throttled only once the throttle holds one: until then, no address lookup.
    const retryAfter = throttle === undefined || throttle.size() === 0 ? 0 : throttle.retryAfterSeconds(request.ip);
    const viaSession = sessions === undefined || level === 'api' ? null : sessionKey(request, sessions);
    if (viaSession !== null) {
      viaSession.then(
        (session) => {
          const record = session.person !== null ? personPrincipal(session.person) : session.key;
          // A person is only ever admitted where the permission table is consulted.
          if (
            record === null ||
            !admits(level, record.kind) ||
            (session.person !== null && permissions === undefined)
          ) {
            done(errors.managementOnly());
            return;
          }
          request.principal = record;
          request.person = session.person;
          request.viaConsole = true;
          done();
        },
        (error: Error) => refuse(error, retryAfter, delayMs, done),
      );
      return;
    }
    let token: string;
    try {
      token = bearerToken(request);
    } catch (error) {
      refuse(error as Error, retryAfter, delayMs, done);
      return;
    }
    // One closure for both outcomes: a key record (never an Error) or an Error.
    const settle = (outcome: KeyRecord | Error): void => {
      if (outcome instanceof Error) refuse(outcome, retryAfter, delayMs, done);
      else if (!admits(level, outcome.kind))
        done(level === 'management' ? errors.managementOnly() : errors.apiKeyOnly());
      else {
        request.principal = outcome;
        done();
      }
    };
    // A cached key is decided at once (the usual case); otherwise the authenticator's promise.
    const outcome = authenticator.authenticateNow(token, retryAfter > 0 ? GUARDED : UNGUARDED);
    if (outcome instanceof Promise) outcome.then(settle, settle);
    else settle(outcome);
  });
}
