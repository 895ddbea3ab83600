import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, Database } from '../schema.js';
import type { KeyPatch, KeyRecord, KeyRepository, NewKey } from '../../domain/keys/types.js';
import { countRows, fromFlag, toFlag } from './convert.js';

function toRecord(row: Selectable<ApiKeysTable>): KeyRecord {
  return {
    hash: row.hash,
    tokenDigest: row.token_digest,
    kind: row.kind,
    name: row.name,
    label: row.label,
    workspaceId: row.workspace_id,
    creatorUserId: row.creator_user_id,
    disabled: fromFlag(row.disabled),
    limit: row.limit_usd,
    limitReset: row.limit_reset,
    includeByokInLimit: fromFlag(row.include_byok_in_limit),
    expiresAt: row.expires_at,
    externalUser: row.external_user,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createKeyRepository(db: Kysely<Database>): KeyRepository {
  const activeApiKeys = (workspaceId: string, now: string) =>
    db
      .selectFrom('api_keys')
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'api')
      .where('disabled', '=', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));

  return {
    async insert(key: NewKey) {
      const row = await db
        .insertInto('api_keys')
        .values({
          hash: key.hash,
          token_digest: key.tokenDigest,
          kind: key.kind,
          name: key.name,
          label: key.label,
          workspace_id: key.workspaceId,
          creator_user_id: key.creatorUserId,
          disabled: 0,
          limit_usd: key.limit,
          limit_reset: key.limitReset,
          include_byok_in_limit: toFlag(key.includeByokInLimit),
          expires_at: key.expiresAt,
          external_user: key.externalUser,
          external_api_key_digest: key.externalApiKeyDigest,
          created_at: key.createdAt,
          updated_at: null,
          rotated_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async findByHash(hash) {
      const row = await db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async findByDigest(tokenDigest) {
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('token_digest', '=', tokenDigest)
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async listDigests(after, limit) {
      let q = db.selectFrom('api_keys').select('token_digest').orderBy('token_digest').limit(limit);
      if (after !== null) q = q.where('token_digest', '>', after);
      const rows = await q.execute();
      return rows.map((row) => row.token_digest);
    },
    async list(query) {
      let q = db
        .selectFrom('api_keys')
        .selectAll()
        .where('workspace_id', '=', query.workspaceId)
        .where('kind', '=', query.kind);
      if (!query.includeDisabled) q = q.where('disabled', '=', 0);
      const rows = await q
        .orderBy('created_at', 'desc')
        .orderBy('hash')
        .offset(query.offset)
        .limit(query.limit)
        .execute();
      return rows.map(toRecord);
    },
    async listManagement() {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('kind', '=', 'management')
        .orderBy('created_at')
        .execute();
      return rows.map(toRecord);
    },
    async update(hash, patch: KeyPatch, now) {
      const values: Partial<ApiKeysTable> = { updated_at: now };
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.disabled !== undefined) values.disabled = toFlag(patch.disabled);
      if (patch.limit !== undefined) values.limit_usd = patch.limit;
      if (patch.limitReset !== undefined) values.limit_reset = patch.limitReset;
      if (patch.includeByokInLimit !== undefined) values.include_byok_in_limit = toFlag(patch.includeByokInLimit);
      if (patch.expiresAt !== undefined) values.expires_at = patch.expiresAt;
      const row = await db
        .updateTable('api_keys')
        .set(values)
        .where('hash', '=', hash)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async replaceDigest(hash, tokenDigest, label, now) {
      const row = await db
        .updateTable('api_keys')
        .set({ token_digest: tokenDigest, label, updated_at: now, rotated_at: now })
        .where('hash', '=', hash)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async delete(hash) {
      const result = await db.deleteFrom('api_keys').where('hash', '=', hash).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async activeHolders(workspaceId, userIds, now) {
      if (userIds.length === 0) return [];
      const rows = await activeApiKeys(workspaceId, now)
        .select('creator_user_id')
        .where('creator_user_id', 'in', userIds)
        .distinct()
        .execute();
      return rows.map((r) => r.creator_user_id);
    },
    async deleteInWorkspace(workspaceId) {
      const result = await db.deleteFrom('api_keys').where('workspace_id', '=', workspaceId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async countActiveInWorkspace(workspaceId, now) {
      return countRows(activeApiKeys(workspaceId, now));
    },
  };
}
