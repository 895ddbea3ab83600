import type { Services } from '../../services.js';
import { Deleted, errorResponses } from '../schemas/common.js';
import {
  CreateKeyBody,
  CurrentKeyObject,
  IssuedKeyEnvelope,
  KeyEnvelope,
  KeyHashParams,
  KeyListEnvelope,
  ListKeysQuery,
  UpdateKeyBody,
} from '../schemas/keys.js';
import { presentCurrentKey, presentKey } from '../presenters/keys.js';
import type { App } from '../types.js';
import type { KeyRecord } from '../../domain/keys/types.js';
import { ZERO_USAGE } from '../../domain/keys/usage.js';
import { Type } from '@sinclair/typebox';
import { writeContext } from '../audit-actor.js';

const tags = ['API keys'];

/** Management routes under /keys. */
export function keyManagementRoutes(app: App, services: Services): void {
  const withUsage = async (records: KeyRecord[]) => {
    const usage = await services.usage.read(
      records.map((r) => r.hash),
      services.clock.now(),
    );
    return records.map((r) => presentKey(r, usage.get(r.hash) ?? ZERO_USAGE));
  };
  const one = async (record: KeyRecord) =>
    presentKey(record, (await services.usage.read([record.hash], services.clock.now())).get(record.hash) ?? ZERO_USAGE);

  app.get('/keys', {
    schema: {
      tags,
      operationId: 'listKeys',
      querystring: ListKeysQuery,
      response: { 200: KeyListEnvelope, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const records = await services.keys.list({
        workspaceRef: request.query.workspace_id,
        includeDisabled: request.query.include_disabled ?? false,
        offset: request.query.offset ?? 0,
      });
      return { data: await withUsage(records) };
    },
  });

  app.post('/keys', {
    schema: {
      tags,
      operationId: 'createKeys',
      body: CreateKeyBody,
      response: { 201: IssuedKeyEnvelope, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request, reply) => {
      const body = request.body;
      const issued = await services.keys.createApiKey(
        {
          name: body.name,
          limit: body.limit,
          limitReset: body.limit_reset,
          includeByokInLimit: body.include_byok_in_limit,
          expiresAt: body.expires_at,
          workspaceRef: body.workspace_id,
          creatorUserId: body.creator_user_id,
          external:
            body.external === undefined ? undefined : { user: body.external.user, apiKey: body.external.api_key },
        },
        request.principal.creatorUserId,
        writeContext(request),
      );
      reply.code(201);
      return { data: await one(issued.record), key: issued.token };
    },
  });

  app.get('/keys/:hash', {
    schema: {
      tags,
      operationId: 'getKey',
      params: KeyHashParams,
      response: { 200: KeyEnvelope, ...errorResponses(401, 403, 404, 500) },
    },
    handler: async (request) => ({ data: await one(await services.keys.get(request.params.hash)) }),
  });

  app.patch('/keys/:hash', {
    schema: {
      tags,
      operationId: 'updateKeys',
      params: KeyHashParams,
      body: UpdateKeyBody,
      response: { 200: KeyEnvelope, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const b = request.body;
      const updated = await services.keys.update(
        request.params.hash,
        {
          name: b.name,
          disabled: b.disabled,
          limit: b.limit,
          limitReset: b.limit_reset,
          includeByokInLimit: b.include_byok_in_limit,
          expiresAt: b.expires_at,
        },
        writeContext(request),
      );
      return { data: await one(updated) };
    },
  });

  app.delete('/keys/:hash', {
    schema: {
      tags,
      operationId: 'deleteKeys',
      params: KeyHashParams,
      response: { 200: Deleted, ...errorResponses(401, 403, 404, 500) },
    },
    handler: async (request) => {
      await services.keys.delete(request.params.hash, writeContext(request));
      return { deleted: true as const };
    },
  });

  app.post('/keys/:hash/rotate', {
    schema: {
      tags,
      operationId: 'rotateKey',
      summary: 'Issue a new token for an API key; the old token stops working immediately',
      params: KeyHashParams,
      response: { 200: IssuedKeyEnvelope, ...errorResponses(401, 403, 404, 500) },
    },
    handler: async (request) => {
      const issued = await services.keys.rotate(request.params.hash, 'api', writeContext(request));
      return { data: await one(issued.record), key: issued.token };
    },
  });
}

/** GET /key: the calling key itself, for either kind of key. */
export function currentKeyRoute(app: App, services: Services): void {
  app.get('/key', {
    schema: {
      tags,
      operationId: 'getCurrentKey',
      response: { 200: Type.Object({ data: CurrentKeyObject }), ...errorResponses(401, 500) },
    },
    handler: async (request) => {
      const key = request.principal;
      const usage = await services.usage.read([key.hash], services.clock.now());
      return { data: presentCurrentKey(key, usage.get(key.hash) ?? ZERO_USAGE) };
    },
  });
}
