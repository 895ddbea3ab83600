import type { Kysely } from 'kysely';

/**
 * Spend is counted per account, not only per key: a key's account is its hash (as before), a
 * member's is `member:<user_id>` (the spend of every key the member created), so a guardrail's
 * `limit_usd` assigned to a member is checked against what all of that member's keys spent.
 * The rename keeps every existing key row as it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('key_spend').renameTo('spend_counters').execute();
  await db.schema.alterTable('spend_counters').renameColumn('key_hash', 'account').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('spend_counters').renameColumn('account', 'key_hash').execute();
  await db.schema.alterTable('spend_counters').renameTo('key_spend').execute();
}
