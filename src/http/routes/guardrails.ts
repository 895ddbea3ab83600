import type { Services } from '../../services.js';
import { Deleted, errorResponses, pageOf } from '../schemas/common.js';
import {
  CreateGuardrailBody,
  GuardrailEnvelope,
  GuardrailList,
  GuardrailListQuery,
  GuardrailParams,
  GuardrailUuidParams,
  UpdateGuardrailBody,
  withZdrAliases,
} from '../schemas/guardrails.js';
import { guardrailInputFrom, presentGuardrail } from '../presenters/guardrails.js';
import type { App } from '../types.js';
import { guardrailAssignmentRoutes } from './guardrail-assignments.js';
import { writeContext } from '../audit-actor.js';

const tags = ['Guardrails'];

/** Guardrails and their key and member assignments (docs/guardrails.md). */
export function guardrailRoutes(app: App, services: Services): void {
  const guardrails = services.guardrails;
  const vendorNames = services.catalog.vendorNames;
  const aliases = Object.values(vendorNames);

  app.get('/guardrails', {
    schema: {
      tags,
      operationId: 'listGuardrails',
      querystring: GuardrailListQuery,
      response: { 200: GuardrailList, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const { rows, total } = await guardrails.list(request.query.workspace_id, pageOf(request.query));
      return { data: rows.map(presentGuardrail), total_count: total };
    },
  });

  app.post('/guardrails', {
    schema: {
      tags,
      operationId: 'createGuardrail',
      body: withZdrAliases(CreateGuardrailBody, aliases),
      response: { 201: GuardrailEnvelope, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request, reply) => {
      const input = guardrailInputFrom(request.body, vendorNames);
      const created = await guardrails.create(
        { ...input, name: request.body.name },
        request.body.workspace_id,
        writeContext(request),
      );
      reply.code(201);
      return { data: presentGuardrail(created) };
    },
  });

  app.get('/guardrails/:id', {
    schema: {
      tags,
      operationId: 'getGuardrail',
      params: GuardrailParams,
      response: { 200: GuardrailEnvelope, ...errorResponses(401, 403, 404, 500) },
    },
    handler: async (request) => ({ data: presentGuardrail(await guardrails.get(request.params.id)) }),
  });

  app.patch('/guardrails/:id', {
    schema: {
      tags,
      operationId: 'updateGuardrail',
      params: GuardrailUuidParams,
      body: withZdrAliases(UpdateGuardrailBody, aliases),
      response: { 200: GuardrailEnvelope, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => ({
      data: presentGuardrail(
        await guardrails.update(
          request.params.id,
          guardrailInputFrom(request.body, vendorNames),
          writeContext(request),
        ),
      ),
    }),
  });

  app.delete('/guardrails/:id', {
    schema: {
      tags,
      operationId: 'deleteGuardrail',
      params: GuardrailParams,
      response: { 200: Deleted, ...errorResponses(401, 403, 404, 500) },
    },
    handler: async (request) => {
      await guardrails.delete(request.params.id, writeContext(request));
      return { deleted: true as const };
    },
  });

  guardrailAssignmentRoutes(app, services);
}
