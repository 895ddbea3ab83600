import type { FastifyInstance, FastifyRequest } from 'fastify';
import { atLeast, roleIn, type Person } from '../../domain/console/person.js';
import type { WorkspaceRole } from '../../domain/workspaces/types.js';
import { errors } from '../../errors/index.js';
import { ROUTE_PERMISSIONS, type Rule, type WorkspaceSource } from './table.js';

/** The lookups that find the workspace a route acts on. */
export interface PermissionLookups {
  workspaceId(ref: string): Promise<string | null>;
  key(hash: string): Promise<{ workspaceId: string; creatorUserId: string; kind: 'api' | 'management' } | null>;
  guardrailWorkspace(id: string): Promise<string | null>;
  generation(id: string): Promise<{ workspaceId: string; keyHash: string } | null>;
}

/** `METHOD /path` of a route as the permission table names it (`prefix` stripped). */
export function routeId(method: string, url: string, prefix: string): string {
  const path = url.startsWith(prefix) ? url.slice(prefix.length) || '/' : url;
  return `${method} ${path}`;
}

type Bag = Record<string, unknown>;
const field = (bag: unknown, name: string): string | undefined => {
  const value = typeof bag === 'object' && bag !== null ? (bag as Bag)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
};

interface Target {
  /** null: the named thing does not exist; the handler answers (404 or 400) as for anyone. */
  workspaceId: string | null;
  creatorUserId?: string;
  managementKey?: boolean;
  /** The key whose usage is read (`key_hash`, or a generation's key). */
  usageKey?: string;
}

async function target(request: FastifyRequest, from: WorkspaceSource, person: Person, lookups: PermissionLookups) {
  const ref = (name: string, bag: unknown): Promise<string | null> => {
    const given = field(bag, name);
    return given === undefined ? Promise.resolve(person.defaultWorkspaceId) : lookups.workspaceId(given);
  };
  const param = (name: string) => field(request.params, name) ?? '';
  switch (from) {
    case 'param':
      return { workspaceId: await lookups.workspaceId(param('id')) };
    case 'query':
      return { workspaceId: await ref('workspace_id', request.query), usageKey: field(request.query, 'key_hash') };
    case 'body':
      return {
        workspaceId: await ref('workspace_id', request.body),
        creatorUserId: field(request.body, 'creator_user_id'),
      };
    case 'key': {
      const key = await lookups.key(param('hash'));
      if (key === null) return { workspaceId: null };
      return {
        workspaceId: key.workspaceId,
        creatorUserId: key.creatorUserId,
        managementKey: key.kind === 'management',
      };
    }
    case 'guardrail':
      return { workspaceId: await lookups.guardrailWorkspace(param('id')) };
    case 'generation': {
      const generation = await lookups.generation(param('id'));
      return generation === null ? { workspaceId: null } : { ...generation, usageKey: generation.keyHash };
    }
  }
}

/** A workspace member reads the usage of keys they created only. */
async function ownUsage(keyHash: string | undefined, person: Person, lookups: PermissionLookups): Promise<void> {
  const key = keyHash === undefined ? null : await lookups.key(keyHash);
  if (key === null || key.creatorUserId !== person.member.id)
    throw refuse('workspace members read the usage of their own keys: pass key_hash of a key you created');
}

/** Every key a body names lies in a workspace where the person holds `role` (unknown keys: the handler's 400). */
async function keysAdministered(
  body: unknown,
  name: string,
  needed: WorkspaceRole,
  person: Person,
  lookups: PermissionLookups,
): Promise<void> {
  if (person.org !== null) return;
  const hashes = typeof body === 'object' && body !== null ? (body as Bag)[name] : undefined;
  if (!Array.isArray(hashes)) return;
  for (const hash of new Set(hashes.filter((h): h is string => typeof h === 'string'))) {
    const key = await lookups.key(hash);
    if (key !== null && !atLeast(roleIn(person, key.workspaceId), needed))
      throw refuse(`workspace ${needed} of every key's workspace needed`);
  }
}

const refuse = (why: string) => errors.forbidden(`Your console role does not allow this: ${why}`);

async function check(request: FastifyRequest, rule: Rule, person: Person, lookups: PermissionLookups): Promise<void> {
  switch (rule.need) {
    case 'signed-in':
      return;
    case 'key-only':
      throw errors.forbidden('This route describes the calling key; a console session of a person has none');
    case 'owner':
      if (person.org !== 'owner') throw refuse('organization owner needed');
      return;
    case 'org-admin':
      if (person.org === null) throw refuse('organization owner or admin needed');
      return;
    case 'workspace':
      break;
  }
  const found: Target = await target(request, rule.from, person, lookups);
  if (found.workspaceId === null) return;
  if (found.managementKey === true && person.org === null) throw refuse('management keys belong to the organization');
  const role = roleIn(person, found.workspaceId);
  if (rule.own === true && role === 'member') {
    // A member acts only on what they created: their own keys, new keys in their own name.
    const creator = found.creatorUserId;
    const isOwn =
      rule.from === 'body' ? creator === undefined || creator === person.member.id : creator === person.member.id;
    if (!isOwn) throw refuse('workspace members manage only the keys they created');
    return;
  }
  if (!atLeast(role, rule.role)) throw refuse(`workspace ${rule.role} needed`);
  if (rule.usage === true && role === 'member') await ownUsage(found.usageKey, person, lookups);
  if (rule.keysFrom !== undefined) await keysAdministered(request.body, rule.keysFrom, rule.role, person, lookups);
  // Lists that span every workspace when unfiltered are narrowed to the checked one.
  if (rule.from === 'query' && person.org === null && field(request.query, 'workspace_id') === undefined)
    (request.query as Bag).workspace_id = found.workspaceId;
}

/**
 * The one place where console roles are enforced: a preHandler of every authenticated scope. It
 * looks up the route in the permission table (unknown routes are refused) and checks the
 * person's role; requests of management keys and key sessions pass untouched.
 */
export function authorizePerson(
  request: FastifyRequest,
  person: Person,
  options: { lookups: PermissionLookups; prefix: string },
): Promise<void> {
  const id = routeId(request.routeOptions.method.toString(), request.routeOptions.url ?? '', options.prefix);
  const rule = ROUTE_PERMISSIONS[id];
  if (rule === undefined) return Promise.reject(refuse('this route is not open to console roles'));
  return check(request, rule, person, options.lookups);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD /path` of every route a console session can reach (the permission table's domain). */
    sessionRoutes: Set<string>;
  }
}

/** Records each route registered in `scope` into the root app's `sessionRoutes`. */
export function collectSessionRoutes(scope: FastifyInstance, into: Set<string>, prefix: string): void {
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') into.add(routeId(method, route.url, prefix));
  });
}
