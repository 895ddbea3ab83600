import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { writeContext } from '../audit-actor.js';
import { presentMember, presentWorkspaceMember } from '../presenters/workspaces.js';
import { errorResponses } from '../schemas/common.js';
import {
  MemberObject,
  MemberParams,
  UpdateMemberBody,
  WorkspaceMemberParams,
  WorkspaceRoleBody,
} from '../schemas/members.js';
import { WorkspaceMemberObject } from '../schemas/workspaces.js';
import type { App } from '../types.js';

/**
 * Console roles set through the API: a member's organization role (`org:owner`, `org:admin`,
 * `org:member`) and disabled flag, and a member's role in one workspace. Disabling a member ends
 * their console sessions at once.
 */
export function roleRoutes(app: App, services: Services): void {
  app.patch('/organization/members/:id', {
    schema: {
      tags: ['Organization'],
      operationId: 'updateOrganizationMember',
      summary: 'Set a member’s organization role or disable them (their console sessions end)',
      params: MemberParams,
      body: UpdateMemberBody,
      response: { 200: Type.Object({ data: Type.Ref(MemberObject) }), ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const member = await services.members.update(request.params.id, request.body, writeContext(request));
      if (member.disabledAt !== null) await services.consoleSessions.endMemberSessions(member.id);
      return { data: presentMember(member) };
    },
  });

  app.patch('/workspaces/:id/members/:user_id', {
    schema: {
      tags: ['Workspaces'],
      operationId: 'setWorkspaceMemberRole',
      summary: 'Set a member’s role in a workspace: admin, member or viewer',
      params: WorkspaceMemberParams,
      body: WorkspaceRoleBody,
      response: {
        200: Type.Object({ data: Type.Ref(WorkspaceMemberObject) }),
        ...errorResponses(400, 401, 403, 404, 500),
      },
    },
    handler: async (request) => {
      const { id, user_id: userId } = request.params;
      const row = await services.workspaces.setMemberRole(id, userId, request.body.role, writeContext(request));
      return { data: presentWorkspaceMember(row) };
    },
  });
}
