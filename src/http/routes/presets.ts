import type { FastifyRequest } from 'fastify';
import { PresetCreateBodySchema } from '../../domain/presets/config-schema.js';
import type { PresetService } from '../../domain/presets/service.js';
import { errorResponses, pageOf } from '../schemas/common.js';
import {
  PresetEnvelope,
  PresetList,
  PresetListQuery,
  PresetMessagesBody,
  PresetParams,
  PresetVersionEnvelope,
  PresetVersionList,
  PresetVersionParams,
  PresetWorkspaceQuery,
  UpdatePresetBody,
} from '../schemas/presets.js';
import { presentPreset, presentPresetVersion, presentResolvedPreset } from '../presenters/presets.js';
import type { App } from '../types.js';
import { decodeResponsesRequest } from '../../wire/openai-responses/request.js';
import { ResponsesRequestSchema } from '../../wire/openai-responses/schema.js';
import { writeContext } from '../audit-actor.js';
import { decodeMessagesRequest } from '../../wire/anthropic-messages/inbound/decode.js';

const tags = ['Presets'];

/** Preset reads: API or management key, in the key's workspace. */
export function presetReadRoutes(app: App, presets: PresetService): void {
  app.get('/presets', {
    schema: {
      tags,
      operationId: 'listPresets',
      querystring: PresetListQuery,
      response: { 200: PresetList, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const workspaceId = await presets.workspaceFor(request.principal, request.query.workspace_id);
      const { rows, total } = await presets.list(workspaceId, pageOf(request.query));
      return { data: rows.map(presentPreset), total_count: total };
    },
  });

  app.get('/presets/:slug', {
    schema: {
      tags,
      operationId: 'getPreset',
      params: PresetParams,
      querystring: PresetWorkspaceQuery,
      response: { 200: PresetEnvelope, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const workspaceId = await presets.workspaceFor(request.principal, request.query.workspace_id);
      return { data: presentResolvedPreset(await presets.get(workspaceId, request.params.slug)) };
    },
  });

  app.get('/presets/:slug/versions', {
    schema: {
      tags,
      operationId: 'listPresetVersions',
      params: PresetParams,
      querystring: PresetListQuery,
      response: { 200: PresetVersionList, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const workspaceId = await presets.workspaceFor(request.principal, request.query.workspace_id);
      const { rows, total } = await presets.listVersions(workspaceId, request.params.slug, pageOf(request.query));
      return { data: rows.map(presentPresetVersion), total_count: total };
    },
  });

  app.get('/presets/:slug/versions/:version', {
    schema: {
      tags,
      operationId: 'getPresetVersion',
      params: PresetVersionParams,
      querystring: PresetWorkspaceQuery,
      response: { 200: PresetVersionEnvelope, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const workspaceId = await presets.workspaceFor(request.principal, request.query.workspace_id);
      return {
        data: presentPresetVersion(await presets.getVersion(workspaceId, request.params.slug, request.params.version)),
      };
    },
  });
}

/** Preset writes: management key. */
export function presetWriteRoutes(app: App, presets: PresetService): void {
  /** A new version from a chat body: the create routes differ only in how they read theirs. */
  const saveFrom = async (
    request: Pick<FastifyRequest, 'principal' | 'person' | 'viaConsole'> & {
      params: { slug: string };
      query: { workspace_id?: string };
    },
    body: Readonly<Record<string, unknown>>,
  ) => {
    const workspaceId = await presets.workspaceFor(request.principal, request.query.workspace_id);
    const saved = await presets.saveVersion({
      workspaceId,
      slug: request.params.slug,
      body,
      creatorUserId: request.principal.creatorUserId,
      ctx: writeContext(request),
    });
    return { data: presentResolvedPreset(saved) };
  };

  app.post('/presets/:slug/chat/completions', {
    schema: {
      tags,
      operationId: 'createPresetsChatCompletions',
      params: PresetParams,
      querystring: PresetWorkspaceQuery,
      body: PresetCreateBodySchema,
      response: { 200: PresetEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
    },
    handler: (request) => saveFrom(request, request.body),
  });

  app.post('/presets/:slug/responses', {
    schema: {
      tags,
      operationId: 'createPresetsResponses',
      params: PresetParams,
      querystring: PresetWorkspaceQuery,
      body: ResponsesRequestSchema,
      response: { 200: PresetEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
    },
    // The Responses body as the chat body it means: `instructions` becomes the system prompt.
    handler: (request) => saveFrom(request, decodeResponsesRequest(request.body, { inputRequired: false }).body),
  });

  app.post('/presets/:slug/messages', {
    schema: {
      tags,
      operationId: 'createPresetsMessages',
      params: PresetParams,
      querystring: PresetWorkspaceQuery,
      body: PresetMessagesBody,
      response: { 200: PresetEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
    },
    handler: (request) => {
      // The Messages body as the chat body it means: `system` becomes the system prompt,
      // `stop_sequences` the stop list, tools and thinking their chat forms.
      const { messages = [], max_tokens, ...rest } = request.body;
      const decoded: Record<string, unknown> = { ...decodeMessagesRequest({ ...rest, messages, max_tokens: 1 }) };
      if (max_tokens === undefined) delete decoded.max_tokens;
      else decoded.max_tokens = max_tokens;
      // Switchyard's routing fields are not Anthropic's: the decoder leaves them, the preset keeps them.
      if (rest.models !== undefined) decoded.models = rest.models;
      if (rest.provider !== undefined) decoded.provider = rest.provider;
      return saveFrom(request, decoded);
    },
  });

  app.patch('/presets/:slug', {
    schema: {
      tags,
      operationId: 'updatePreset',
      params: PresetParams,
      querystring: PresetWorkspaceQuery,
      body: UpdatePresetBody,
      response: { 200: PresetEnvelope, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const workspaceId = await presets.workspaceFor(request.principal, request.query.workspace_id);
      const { name, description, status, designated_version: designatedVersion } = request.body;
      const updated = await presets.update(
        workspaceId,
        request.params.slug,
        { name, description, status, designatedVersion },
        writeContext(request),
      );
      return { data: presentResolvedPreset(updated) };
    },
  });
}
