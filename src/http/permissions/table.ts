import type { WorkspaceRole } from '../../domain/workspaces/types.js';

/**
 * Where a route's workspace comes from:
 * - `param`: the `:id` of `/workspaces/:id…`;
 * - `query` / `body`: `workspace_id` (the default workspace when absent, as the handlers do);
 * - `key`, `guardrail`, `generation`: the workspace of the `:hash` / `:id` the route names.
 */
export type WorkspaceSource = 'param' | 'query' | 'body' | 'key' | 'guardrail' | 'generation';

/**
 * What a console session of a person (single sign-on) needs to call a route. Management keys and
 * break-glass key sessions are never checked against this table.
 * - `signed-in`: any person;
 * - `org-admin`: organization `admin` or `owner`; `owner`: organization `owner`;
 * - `workspace`: at least `role` in the route's workspace. `own` lets a workspace `member` act on
 *   what they created (`key`: a key whose creator they are; `body`: a new key's
 *   `creator_user_id`, which must then be themselves);
 *   `usage` narrows a workspace `member` to the usage of keys they created (`key_hash` of one of
 *   theirs on lists; the generation's key on `/generations/{id}`); viewers and admins read all;
 * - `key-only`: routes about the calling key itself; a person has none.
 */
export type Rule =
  | { need: 'signed-in' | 'org-admin' | 'owner' | 'key-only' }
  | {
      need: 'workspace';
      role: WorkspaceRole;
      from: WorkspaceSource;
      own?: boolean;
      usage?: boolean;
      /** A body field listing key hashes: the person must hold `role` in each key's workspace too. */
      keysFrom?: string;
    };

const signedIn: Rule = { need: 'signed-in' };
const orgAdmin: Rule = { need: 'org-admin' };
const usage = (from: WorkspaceSource): Rule => ({ need: 'workspace', role: 'viewer', from, usage: true });
const ws = (role: WorkspaceRole, from: WorkspaceSource, extra: { own?: boolean; keysFrom?: string } = {}): Rule => ({
  need: 'workspace',
  role,
  from,
  ...extra,
});

/**
 * Every route a console session may reach (method and path without the `/api/v1` prefix). A
 * route missing here is refused to every person (403); the route-walk test fails on it first.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, Rule>> = {
  // Organization
  'GET /organization/members': signedIn,
  'POST /organization/members': orgAdmin,
  'PATCH /organization/members/:id': { need: 'owner' },
  'POST /catalog/reload': orgAdmin,
  'GET /audit-log': orgAdmin,
  'GET /metrics': orgAdmin,
  'GET /analytics/usage': orgAdmin,
  'GET /analytics/limits': orgAdmin,
  'GET /guardrails/assignments/keys': orgAdmin,
  'GET /guardrails/assignments/members': orgAdmin,
  // Catalog and tools that read no workspace data
  'GET /models': signedIn,
  'GET /models/:author/:slug/endpoints': signedIn,
  'GET /embeddings/models': signedIn,
  'GET /providers': signedIn,
  'GET /analytics/endpoints': signedIn,
  'POST /guardrails/scan': signedIn,
  'POST /guardrails/validate-pattern': signedIn,
  'GET /key': { need: 'key-only' },
  // Workspaces and their members
  'GET /workspaces': signedIn,
  'POST /workspaces': orgAdmin,
  'GET /workspaces/:id': ws('viewer', 'param'),
  'PATCH /workspaces/:id': ws('admin', 'param'),
  'DELETE /workspaces/:id': orgAdmin,
  'GET /workspaces/:id/members': ws('viewer', 'param'),
  'POST /workspaces/:id/members/add': ws('admin', 'param'),
  'POST /workspaces/:id/members/remove': ws('admin', 'param'),
  'PATCH /workspaces/:id/members/:user_id': ws('admin', 'param'),
  // API keys
  'GET /keys': ws('viewer', 'query'),
  'POST /keys': ws('member', 'body', { own: true }),
  'GET /keys/:hash': ws('viewer', 'key'),
  'PATCH /keys/:hash': ws('member', 'key', { own: true }),
  'DELETE /keys/:hash': ws('member', 'key', { own: true }),
  'POST /keys/:hash/rotate': ws('member', 'key', { own: true }),
  // Guardrails
  'GET /guardrails': ws('viewer', 'query'),
  'POST /guardrails': ws('admin', 'body'),
  'GET /guardrails/:id': ws('viewer', 'guardrail'),
  'PATCH /guardrails/:id': ws('admin', 'guardrail'),
  'DELETE /guardrails/:id': ws('admin', 'guardrail'),
  'POST /guardrails/:id/scan': ws('viewer', 'guardrail'),
  'GET /guardrails/:id/assignments/keys': ws('viewer', 'guardrail'),
  // A guardrail may be assigned to keys of other workspaces: the person administers those too.
  'POST /guardrails/:id/assignments/keys': ws('admin', 'guardrail', { keysFrom: 'key_hashes' }),
  'POST /guardrails/:id/assignments/keys/remove': ws('admin', 'guardrail', { keysFrom: 'key_hashes' }),
  'GET /guardrails/:id/assignments/members': ws('viewer', 'guardrail'),
  // A member's guardrail reaches every key they created, in any workspace: organization-wide.
  'POST /guardrails/:id/assignments/members': orgAdmin,
  'POST /guardrails/:id/assignments/members/remove': orgAdmin,
  // Presets
  'GET /presets': ws('viewer', 'query'),
  'GET /presets/:slug': ws('viewer', 'query'),
  'GET /presets/:slug/versions': ws('viewer', 'query'),
  'GET /presets/:slug/versions/:version': ws('viewer', 'query'),
  'POST /presets/:slug/chat/completions': ws('admin', 'query'),
  'POST /presets/:slug/responses': ws('admin', 'query'),
  'POST /presets/:slug/messages': ws('admin', 'query'),
  'PATCH /presets/:slug': ws('admin', 'query'),
  // Usage
  'GET /activity': usage('query'),
  'GET /generations': usage('query'),
  'GET /generations/:id': usage('generation'),
};
