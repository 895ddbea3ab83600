import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { Deleted, PageQuery, errorResponses, pageOf } from '../schemas/common.js';
import {
  CreateWorkspaceBody,
  DeleteWorkspaceQuery,
  UpdateWorkspaceBody,
  UserIdsBody,
  WorkspaceMemberObject,
  WorkspaceObject,
  WorkspaceParams,
} from '../schemas/workspaces.js';
import { presentWorkspace, presentWorkspaceMember, workspacePatchFrom } from '../presenters/workspaces.js';
import type { App } from '../types.js';
import { writeContext } from '../audit-actor.js';

const tags = ['Workspaces'];
const WorkspaceEnvelope = Type.Object({ data: Type.Ref(WorkspaceObject) });

/** Workspaces and their members. `{id}` is a UUID or a slug. */
export function workspaceRoutes(app: App, services: Services): void {
  const ws = services.workspaces;

  app.get('/workspaces', {
    schema: {
      tags,
      operationId: 'listWorkspaces',
      querystring: PageQuery,
      response: {
        200: Type.Object({ data: Type.Array(Type.Ref(WorkspaceObject)), total_count: Type.Integer() }),
        ...errorResponses(400, 401, 403, 500),
      },
    },
    handler: async (request) => {
      const { rows, total } = await ws.list(pageOf(request.query));
      return { data: rows.map(presentWorkspace), total_count: total };
    },
  });

  app.post('/workspaces', {
    schema: {
      tags,
      operationId: 'createWorkspace',
      body: CreateWorkspaceBody,
      response: { 201: WorkspaceEnvelope, ...errorResponses(400, 401, 403, 409, 500) },
    },
    handler: async (request, reply) => {
      const patch = workspacePatchFrom(request.body);
      const created = await ws.create(
        { ...patch, name: request.body.name, slug: request.body.slug },
        request.principal.creatorUserId,
        writeContext(request),
      );
      reply.code(201);
      return { data: presentWorkspace(created) };
    },
  });

  app.get('/workspaces/:id', {
    schema: {
      tags,
      operationId: 'getWorkspace',
      params: WorkspaceParams,
      response: { 200: WorkspaceEnvelope, ...errorResponses(401, 403, 404, 500) },
    },
    handler: async (request) => ({ data: presentWorkspace(await ws.get(request.params.id)) }),
  });

  app.patch('/workspaces/:id', {
    schema: {
      tags,
      operationId: 'updateWorkspace',
      params: WorkspaceParams,
      body: UpdateWorkspaceBody,
      response: { 200: WorkspaceEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
    },
    handler: async (request) => ({
      data: presentWorkspace(
        await ws.update(request.params.id, workspacePatchFrom(request.body), writeContext(request)),
      ),
    }),
  });

  app.delete('/workspaces/:id', {
    schema: {
      tags,
      operationId: 'deleteWorkspace',
      params: WorkspaceParams,
      querystring: DeleteWorkspaceQuery,
      response: { 200: Deleted, ...errorResponses(400, 401, 403, 404, 409, 500) },
    },
    handler: async (request) => {
      await ws.delete(request.params.id, writeContext(request));
      return { deleted: true as const };
    },
  });

  app.get('/workspaces/:id/members', {
    schema: {
      tags,
      operationId: 'listWorkspaceMembers',
      params: WorkspaceParams,
      querystring: PageQuery,
      response: {
        200: Type.Object({ data: Type.Array(Type.Ref(WorkspaceMemberObject)), total_count: Type.Integer() }),
        ...errorResponses(400, 401, 403, 404, 500),
      },
    },
    handler: async (request) => {
      const { rows, total } = await ws.listMembers(request.params.id, pageOf(request.query));
      return { data: rows.map(presentWorkspaceMember), total_count: total };
    },
  });

  app.post('/workspaces/:id/members/add', {
    schema: {
      tags,
      operationId: 'bulkAddWorkspaceMembers',
      params: WorkspaceParams,
      body: UserIdsBody,
      response: {
        200: Type.Object({ added_count: Type.Integer(), data: Type.Array(Type.Ref(WorkspaceMemberObject)) }),
        ...errorResponses(400, 401, 403, 404, 500),
      },
    },
    handler: async (request) => {
      const rows = await ws.addMembers(request.params.id, request.body.user_ids, writeContext(request));
      return { added_count: rows.length, data: rows.map(presentWorkspaceMember) };
    },
  });

  app.post('/workspaces/:id/members/remove', {
    schema: {
      tags,
      operationId: 'bulkRemoveWorkspaceMembers',
      summary: 'Remove members (all or nothing: 409 while any holds an active API key here)',
      params: WorkspaceParams,
      body: UserIdsBody,
      response: {
        200: Type.Object({ removed_count: Type.Integer() }),
        ...errorResponses(400, 401, 403, 404, 409, 500),
      },
    },
    handler: async (request) => ({
      removed_count: await ws.removeMembers(request.params.id, request.body.user_ids, writeContext(request)),
    }),
  });
}
