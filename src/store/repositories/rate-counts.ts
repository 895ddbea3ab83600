import type { Kysely } from 'kysely';
import type { RateCount, RateCountStore } from '../../domain/accounting/rate-book.js';
import type { Database } from '../schema.js';

/** The per-minute counts the replicas share (rate limits): one upsert and one sum per sync. */
export function createRateCountRepository(db: Kysely<Database>): RateCountStore {
  return {
    async syncRateCounts({ holder, counts, expiresAt, purgeBefore }): Promise<RateCount[]> {
      if (counts.length === 0) return [];
      await db
        .insertInto('rate_counts')
        .values(
          counts.map((c) => ({
            account: c.account,
            window: c.window,
            holder,
            requests: c.requests,
            tokens: c.tokens,
            expires_at: expiresAt,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['account', 'window', 'holder']).doUpdateSet((eb) => ({
            requests: eb.ref('excluded.requests'),
            tokens: eb.ref('excluded.tokens'),
            expires_at: eb.ref('excluded.expires_at'),
          })),
        )
        .execute();
      await db.deleteFrom('rate_counts').where('expires_at', '<', purgeBefore).execute();
      const rows = await db
        .selectFrom('rate_counts')
        .select((eb) => [
          'account',
          'window',
          eb.fn.sum<number | string>('requests').as('requests'),
          eb.fn.sum<number | string>('tokens').as('tokens'),
        ])
        .where('account', 'in', [...new Set(counts.map((c) => c.account))])
        .where('window', 'in', [...new Set(counts.map((c) => c.window))])
        .groupBy(['account', 'window'])
        .execute();
      return rows.map((r) => ({
        account: r.account,
        window: r.window,
        requests: Number(r.requests),
        tokens: Number(r.tokens),
      }));
    },
  };
}
