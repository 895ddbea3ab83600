import type { Kysely, Selectable } from 'kysely';
import type { StoredResponse, StoredResponseRepository } from '../../domain/responses/types.js';
import type { Database } from '../schema.js';
import type { StoredResponsesTable } from '../schema-responses.js';

function parse<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function toStored(row: Selectable<StoredResponsesTable>): StoredResponse {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    keyHash: row.key_hash,
    inputItems: parse<unknown[]>(row.input_items, []),
    outputItems: parse<unknown[]>(row.output_items, []),
    response: parse<Record<string, unknown>>(row.response, {}),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Stored Responses, scoped by workspace and key on every read and delete. */
export function createStoredResponseRepository(db: Kysely<Database>): StoredResponseRepository {
  return {
    async saveAll(responses) {
      if (responses.length === 0) return;
      await db
        .insertInto('stored_responses')
        .values(
          responses.map((r) => ({
            id: r.id,
            workspace_id: r.workspaceId,
            key_hash: r.keyHash,
            input_items: r.inputItems,
            output_items: r.outputItems,
            response: r.response,
            bytes: r.bytes,
            created_at: r.createdAt,
            expires_at: r.expiresAt,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
    async find(id, scope, now) {
      const row = await db
        .selectFrom('stored_responses')
        .selectAll()
        .where('id', '=', id)
        .where('workspace_id', '=', scope.workspaceId)
        .where('key_hash', '=', scope.keyHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row === undefined ? null : toStored(row);
    },
    async remove(id, scope) {
      const result = await db
        .deleteFrom('stored_responses')
        .where('id', '=', id)
        .where('workspace_id', '=', scope.workspaceId)
        .where('key_hash', '=', scope.keyHash)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async pruneExpired(now, limit) {
      // In small batches (a subquery on the expiry index), so pruning never holds a long lock.
      const result = await db
        .deleteFrom('stored_responses')
        .where('id', 'in', (eb) =>
          eb.selectFrom('stored_responses').select('id').where('expires_at', '<=', now).limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
