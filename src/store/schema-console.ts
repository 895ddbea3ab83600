/**
 * Table types of the web console (merged into `Database`). Same conventions as schema.ts:
 * timestamps ISO-8601 text, money doubles.
 */
export interface ConsoleSessionsTable {
  /** Digest of the session token (the token is only in the browser's HttpOnly cookie). */
  token_digest: string;
  /** A break-glass session's management key (null for a person's session). */
  key_hash: string | null;
  /** The management key's token digest at sign-in; a rotated key no longer matches it. */
  key_token_digest: string | null;
  /** A person's session (single sign-on): the member it acts as. */
  member_id: string | null;
  created_at: string;
  last_seen_at: string;
}

/** Generations summed per UTC hour × key × model × provider endpoint (`hour` is `YYYY-MM-DDTHH`). */
export interface UsageRollupsTable {
  hour: string;
  key_hash: string;
  workspace_id: string;
  model: string;
  provider_id: string;
  upstream_model: string;
  requests: number;
  errors: number;
  cancelled: number;
  flagged: number;
  /** How many of `errors` were refused calls (migration 013). */
  refused: number;
  /** bigint: a string on PostgreSQL. */
  prompt_tokens: number | string;
  completion_tokens: number | string;
  reasoning_tokens: number | string;
  cost_usd: number;
  generation_time_ms: number;
}

/** The same sums per UTC day × key × model × provider endpoint (`day` is `YYYY-MM-DD`). */
export interface UsageRollupsDailyTable extends Omit<UsageRollupsTable, 'hour'> {
  day: string;
}

export interface ConsoleTables {
  console_sessions: ConsoleSessionsTable;
  usage_rollups: UsageRollupsTable;
  usage_rollups_daily: UsageRollupsDailyTable;
}
