import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { PageQuery, errorResponses, pageOf } from '../schemas/common.js';
import { CreateMemberBody, MemberObject } from '../schemas/members.js';
import { presentMember } from '../presenters/workspaces.js';
import type { App } from '../types.js';
import { writeContext } from '../audit-actor.js';

const tags = ['Organization'];

/** GET/POST /organization/members (POST is Switchyard's addition to OpenRouter's API). */
export function memberRoutes(app: App, services: Services): void {
  app.get('/organization/members', {
    schema: {
      tags,
      operationId: 'listOrganizationMembers',
      querystring: PageQuery,
      response: {
        200: Type.Object({ data: Type.Array(Type.Ref(MemberObject)), total_count: Type.Integer() }),
        ...errorResponses(400, 401, 403, 500),
      },
    },
    handler: async (request) => {
      const { rows, total } = await services.members.list(pageOf(request.query));
      return { data: rows.map(presentMember), total_count: total };
    },
  });

  app.post('/organization/members', {
    schema: {
      tags,
      operationId: 'createOrganizationMember',
      body: CreateMemberBody,
      response: { 201: Type.Object({ data: Type.Ref(MemberObject) }), ...errorResponses(400, 401, 403, 409, 500) },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const member = await services.members.add(
        {
          email: b.email,
          firstName: b.first_name,
          lastName: b.last_name,
          role: b.role,
        },
        writeContext(request),
      );
      reply.code(201);
      return { data: presentMember(member) };
    },
  });
}
