import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { PageQuery, errorResponses, pageOf } from '../schemas/common.js';
import {
  GuardrailParams,
  KeyAssignmentList,
  KeyHashesBody,
  MemberAssignmentList,
  MemberIdsBody,
} from '../schemas/guardrails.js';
import { presentKeyAssignment, presentMemberAssignment } from '../presenters/guardrails.js';
import type { App } from '../types.js';
import { writeContext } from '../audit-actor.js';

const tags = ['Guardrails'];
const Assigned = Type.Object({ assigned_count: Type.Integer() });
const Unassigned = Type.Object({ unassigned_count: Type.Integer() });

/** Key and member assignments of a guardrail. Unassigning is a POST to `/remove`. */
export function guardrailAssignmentRoutes(app: App, services: Services): void {
  const guardrails = services.guardrails;

  app.get('/guardrails/assignments/keys', {
    schema: {
      tags,
      operationId: 'listKeyAssignments',
      querystring: PageQuery,
      response: { 200: KeyAssignmentList, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const { rows, total } = await guardrails.listKeyAssignments(null, pageOf(request.query));
      return { data: rows.map(presentKeyAssignment), total_count: total };
    },
  });

  app.get('/guardrails/assignments/members', {
    schema: {
      tags,
      operationId: 'listMemberAssignments',
      querystring: PageQuery,
      response: { 200: MemberAssignmentList, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const { rows, total } = await guardrails.listMemberAssignments(null, pageOf(request.query));
      return { data: rows.map(presentMemberAssignment), total_count: total };
    },
  });

  app.get('/guardrails/:id/assignments/keys', {
    schema: {
      tags,
      operationId: 'listGuardrailKeyAssignments',
      params: GuardrailParams,
      querystring: PageQuery,
      response: { 200: KeyAssignmentList, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const { rows, total } = await guardrails.listKeyAssignments(request.params.id, pageOf(request.query));
      return { data: rows.map(presentKeyAssignment), total_count: total };
    },
  });

  app.post('/guardrails/:id/assignments/keys', {
    schema: {
      tags,
      operationId: 'bulkAssignKeysToGuardrail',
      summary: 'Assign keys (a key holds one guardrail: assigning replaces its previous one)',
      params: GuardrailParams,
      body: KeyHashesBody,
      response: { 200: Assigned, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => ({
      assigned_count: await guardrails.assignKeys(
        request.params.id,
        request.body.key_hashes,
        request.principal.creatorUserId,
        writeContext(request),
      ),
    }),
  });

  app.post('/guardrails/:id/assignments/keys/remove', {
    schema: {
      tags,
      operationId: 'bulkUnassignKeysFromGuardrail',
      params: GuardrailParams,
      body: KeyHashesBody,
      response: { 200: Unassigned, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => ({
      unassigned_count: await guardrails.unassignKeys(
        request.params.id,
        request.body.key_hashes,
        writeContext(request),
      ),
    }),
  });

  app.get('/guardrails/:id/assignments/members', {
    schema: {
      tags,
      operationId: 'listGuardrailMemberAssignments',
      params: GuardrailParams,
      querystring: PageQuery,
      response: { 200: MemberAssignmentList, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const { rows, total } = await guardrails.listMemberAssignments(request.params.id, pageOf(request.query));
      return { data: rows.map(presentMemberAssignment), total_count: total };
    },
  });

  app.post('/guardrails/:id/assignments/members', {
    schema: {
      tags,
      operationId: 'bulkAssignMembersToGuardrail',
      summary: 'Assign members (a member holds one guardrail: assigning replaces their previous one)',
      params: GuardrailParams,
      body: MemberIdsBody,
      response: { 200: Assigned, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => ({
      assigned_count: await guardrails.assignMembers(
        request.params.id,
        request.body.member_user_ids,
        request.principal.creatorUserId,
        writeContext(request),
      ),
    }),
  });

  app.post('/guardrails/:id/assignments/members/remove', {
    schema: {
      tags,
      operationId: 'bulkUnassignMembersFromGuardrail',
      params: GuardrailParams,
      body: MemberIdsBody,
      response: { 200: Unassigned, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => ({
      unassigned_count: await guardrails.unassignMembers(
        request.params.id,
        request.body.member_user_ids,
        writeContext(request),
      ),
    }),
  });
}
