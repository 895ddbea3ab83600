import type { ChangeFeed } from '../domain/common/changes.js';
import { LocalChangeFeed, type LogFn } from './change-feed.js';
import { PostgresChangeFeed } from './postgres/change-feed.js';
import { describeDatabaseUrl } from './store.js';

export interface OpenChangeFeedOptions {
  databaseUrl: string;
  /** SQLite's data_version marker (`store.externalChangeMarker`), so writes of the CLI are seen. */
  externalChangeMarker?: () => number | null;
  log?: LogFn;
}

/** The feed that fits the store: LISTEN/NOTIFY on PostgreSQL, in-process on SQLite. Not started. */
export function openChangeFeed(options: OpenChangeFeedOptions): ChangeFeed {
  if (describeDatabaseUrl(options.databaseUrl) === 'postgres') {
    return new PostgresChangeFeed({ url: options.databaseUrl, log: options.log });
  }
  return new LocalChangeFeed({ externalChangeMarker: options.externalChangeMarker, log: options.log });
}
