import { sql, type Kysely } from 'kysely';

/**
 * `generations.api_type` now holds the API surface a call came in on (`chat`, `completions`,
 * `messages`, `responses`, `embeddings`); the wire's `api_type` (OpenRouter's enum) is derived
 * from it. Chat calls used to be stored as `completions`, like legacy completions: the two
 * cannot be told apart any more, so earlier `completions` rows become `chat` (by far the more
 * common of the two). No index: the console filters by surface along the log's time order,
 * and the ledger's write path stays as it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE generations SET api_type = 'chat' WHERE api_type = 'completions'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE generations SET api_type = 'completions' WHERE api_type = 'chat'`.execute(db);
}
