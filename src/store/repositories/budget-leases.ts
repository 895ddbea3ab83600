import type { Kysely } from 'kysely';
import type { LedgerRepository } from '../../domain/accounting/types.js';
import type { AccountingDatabase } from '../schema-accounting.js';

type LeaseMethods = Pick<LedgerRepository, 'grantLease' | 'renewLeases' | 'releaseLeases'>;

/**
 * Budget leases on both dialects with one query layer (docs/metering.md, "Several replicas").
 * A grant locks the slot's spend counter row with a no-op upsert (`… DO UPDATE SET amount_usd =
 * spend_counters.amount_usd RETURNING`): on PostgreSQL that row lock makes grants of one slot
 * run one at a time (a ledger batch adding to the same row waits for it too); SQLite runs one
 * writer at a time anyway. Grants are rare (one per many calls), so the row is not hot.
 */
export function budgetLeaseMethods(db: Kysely<AccountingDatabase>): LeaseMethods {
  return {
    async grantLease(req) {
      return db.transaction().execute(async (trx) => {
        const counter = await trx
          .insertInto('spend_counters')
          .values({ account: req.account, window: req.window, amount_usd: 0, byok_usd: 0 })
          .onConflict((oc) =>
            oc
              .columns(['account', 'window'])
              .doUpdateSet((eb) => ({ amount_usd: eb.ref('spend_counters.amount_usd') })),
          )
          .returning('amount_usd')
          .executeTakeFirstOrThrow();
        const others = await trx
          .selectFrom('budget_leases')
          .select(['amount_usd'])
          .where('account', '=', req.account)
          .where('window', '=', req.window)
          .where('holder', '<>', req.holder)
          .where('expires_at', '>', req.now)
          .execute();
        const leased = others.reduce((sum, row) => sum + Math.max(0, Number(row.amount_usd)), 0);
        const roomUsd = req.limitUsd - Number(counter.amount_usd) - leased;
        // Money comparisons tolerate float noise far below a cent.
        if (roomUsd + 1e-9 < req.needUsd) return { leaseUsd: null, roomUsd };
        const leaseUsd = Math.max(req.needUsd, Math.min(roomUsd, req.wantUsd));
        await trx
          .insertInto('budget_leases')
          .values({
            account: req.account,
            window: req.window,
            holder: req.holder,
            amount_usd: leaseUsd,
            expires_at: req.expiresAt,
          })
          .onConflict((oc) =>
            oc
              .columns(['account', 'window', 'holder'])
              .doUpdateSet({ amount_usd: leaseUsd, expires_at: req.expiresAt }),
          )
          .execute();
        await trx
          .deleteFrom('budget_leases')
          .where('account', '=', req.account)
          .where('window', '=', req.window)
          .where('expires_at', '<=', req.now)
          .execute();
        return { leaseUsd, roomUsd };
      });
    },

    async renewLeases(holder, leases, expiresAt, purgeBefore) {
      return db.transaction().execute(async (trx) => {
        const missing = [];
        for (const lease of leases) {
          const result = await trx
            .updateTable('budget_leases')
            .set({ amount_usd: Math.max(0, lease.leaseUsd), expires_at: expiresAt })
            .where('account', '=', lease.account)
            .where('window', '=', lease.window)
            .where('holder', '=', holder)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) missing.push({ account: lease.account, window: lease.window });
        }
        await trx.deleteFrom('budget_leases').where('expires_at', '<', purgeBefore).execute();
        return missing;
      });
    },

    async releaseLeases(holder, slots) {
      for (const slot of slots) {
        await db
          .deleteFrom('budget_leases')
          .where('account', '=', slot.account)
          .where('window', '=', slot.window)
          .where('holder', '=', holder)
          .execute();
      }
    },
  };
}
