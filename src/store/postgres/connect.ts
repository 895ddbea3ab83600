import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';

export interface PostgresConnection {
  db: Kysely<Database>;
  pool: pg.Pool;
}

export function openPostgres(url: string, options: { maxConnections?: number } = {}): PostgresConnection {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one: pg emits 'error' on a client whose server goes away (a restart,
  // a failover) even when its query already failed, and the pool listens only while it is idle.
  // The query has failed already; the pool drops the broken client when it comes back.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool };
}
