import type { IncomingHttpHeaders } from 'node:http';
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

/** An outcome of the authenticator as the model-call ('api') scope admits it: the key, or null for a refusal. */
const apiKeyOrNull = (outcome: KeyRecord | Error): KeyRecord | null =>
  outcome instanceof Error || !admits('api', outcome.kind) ? null : outcome;
const refused = (): null => null;

/**
 * The lean model-call edge's admission (src/http/edge): the API key a request's credential
 * authenticates, decided by the same authenticator and rules as the model-call scope's hook below
 * for an address the failed-authentication throttle does not hold (the edge checks that first);
 * null for every credential the hook would refuse. The edge hands a refused request to Fastify,
 * whose hook then answers it, counts the failure against the address and applies the throttle.
 */
export function admittedApiKey(
  headers: IncomingHttpHeaders,
  authenticator: KeyAuthenticator,
): KeyRecord | null | Promise<KeyRecord | null> {
  let token: string;
  try {
    token = bearerToken({ headers });
  } catch {
    return null;
  }
  const outcome = authenticator.authenticateNow(token, UNGUARDED);
  return outcome instanceof Promise ? outcome.then(apiKeyOrNull, refused) : apiKeyOrNull(outcome);
}

type Done = (error?: Error) => void;

/**
 * How one scope answers a request's credential: its level, its refusal delay and whether it
 * consults the permission table. One per scope, so a request's hook allocates no closure when its
 * key is decided at once (the usual case): only a promise's outcome needs one.
 */
class KeyAdmission {
  constructor(
    private readonly level: AuthLevel,
    readonly delayMs: number,
    private readonly consultsPermissions: boolean,
  ) {}

  /** Answers a failed authentication: a 401 from a throttled address becomes a 429, sent after `delayMs`. */
  refuse(error: Error, retryAfter: number, done: Done): void {
    const refusal = throttledRefusal(error, retryAfter);
    if (refusal === error || this.delayMs === 0) done(refusal);
    else setTimeout(() => done(refusal), this.delayMs);
  }

  /** Admits `request` with the key record of its token, or refuses it with the authenticator's Error. */
  settle(request: FastifyRequest, outcome: KeyRecord | Error, retryAfter: number, done: Done): void {
    if (outcome instanceof Error) this.refuse(outcome, retryAfter, done);
    else if (!admits(this.level, outcome.kind))
      done(this.level === 'management' ? errors.managementOnly() : errors.apiKeyOnly());
    else {
      request.principal = outcome;
      done();
    }
  }

  /** `settle` once the authenticator's promise is settled (a key not decided from the cache). */
  later(request: FastifyRequest, outcome: Promise<KeyRecord>, retryAfter: number, done: Done): void {
    const settle = (result: KeyRecord | Error): void => this.settle(request, result, retryAfter, done);
    outcome.then(settle, settle);
  }

  /** Admits `request` as the management key or person of its console session, or refuses it. */
  session(request: FastifyRequest, session: Promise<ConsoleSession>, retryAfter: number, done: Done): void {
    session.then(
      ({ person, key }) => {
        const record = person !== null ? personPrincipal(person) : key;
        // A person is only ever admitted where the permission table is consulted.
        if (record === null || !admits(this.level, record.kind) || (person !== null && !this.consultsPermissions)) {
          done(errors.managementOnly());
          return;
        }
        request.principal = record;
        request.person = person;
        request.viaConsole = true;
        done();
      },
      (error: Error) => this.refuse(error, retryAfter, done),
    );
  }
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
  const { authenticator, level, throttle, permissions } = options;
  scope.decorateRequest('principal', null as unknown as KeyRecord);
  scope.decorateRequest('person', null);
  scope.decorateRequest('viaConsole', false);
  // Only a console session brings a person, and a model-call ('api') scope admits none: there the
  // hook would run on every call and never act.
  const sessions = level === 'api' ? undefined : options.sessions;
  if (permissions !== undefined && sessions !== undefined)
    // Before validation (the body is parsed by then): a person without the role learns nothing
    // about the route's input rules, and is refused before any handler runs.
    scope.addHook('preValidation', (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
      if (request.person === null) {
        done();
        return;
      }
      authorizePerson(request, request.person, permissions).then(() => done(), done);
    });
  const admission = new KeyAdmission(level, options.refusalDelayMs ?? 0, permissions !== undefined);
  // Callback style: no promise of the hook's own (an async hook makes one per request), none at all
  // for a cached key (`authenticateNow`), and no closure unless a promise is waited for.
  scope.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
    // An address can be throttled only once the throttle holds one: until then, no address lookup.
    const retryAfter = throttle === undefined || throttle.size() === 0 ? 0 : throttle.retryAfterSeconds(request.ip);
    const viaSession = sessions === undefined ? null : sessionKey(request, sessions);
    if (viaSession !== null) {
      admission.session(request, viaSession, retryAfter, done);
      return;
    }
    let token: string;
    try {
      token = bearerToken(request);
    } catch (error) {
      admission.refuse(error as Error, retryAfter, done);
      return;
    }
    // A cached key is decided at once (the usual case); otherwise the authenticator's promise.
    const outcome = authenticator.authenticateNow(token, retryAfter > 0 ? GUARDED : UNGUARDED);
    if (outcome instanceof Promise) admission.later(request, outcome, retryAfter, done);
    else admission.settle(request, outcome, retryAfter, done);
  });
}
