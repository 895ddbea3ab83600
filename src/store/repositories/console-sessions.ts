import type { Kysely } from 'kysely';
import type { ConsoleSessionRepository } from '../../domain/console/types.js';
import type { Database } from '../schema.js';

export function createConsoleSessionRepository(db: Kysely<Database>): ConsoleSessionRepository {
  return {
    async insert(row) {
      await db
        .insertInto('console_sessions')
        .values({
          token_digest: row.tokenDigest,
          key_hash: row.keyHash,
          key_token_digest: row.keyTokenDigest,
          member_id: row.memberId,
          created_at: row.createdAt,
          last_seen_at: row.lastSeenAt,
        })
        .execute();
    },
    async find(tokenDigest) {
      const row = await db
        .selectFrom('console_sessions')
        .selectAll()
        .where('token_digest', '=', tokenDigest)
        .executeTakeFirst();
      if (row === undefined) return null;
      return {
        tokenDigest: row.token_digest,
        keyHash: row.key_hash,
        keyTokenDigest: row.key_token_digest,
        memberId: row.member_id,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
      };
    },
    async touch(tokenDigest, lastSeenAt) {
      await db
        .updateTable('console_sessions')
        .set({ last_seen_at: lastSeenAt })
        .where('token_digest', '=', tokenDigest)
        .where('last_seen_at', '<', lastSeenAt)
        .execute();
    },
    async delete(tokenDigest) {
      await db.deleteFrom('console_sessions').where('token_digest', '=', tokenDigest).execute();
    },
    async deleteForMember(memberId) {
      const result = await db.deleteFrom('console_sessions').where('member_id', '=', memberId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async deleteIdleSince(before) {
      const result = await db.deleteFrom('console_sessions').where('last_seen_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
