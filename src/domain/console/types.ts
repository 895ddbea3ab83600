/** One signed-in console session as stored (the session token itself is never stored). */
export interface ConsoleSessionRow {
  tokenDigest: string;
  keyHash: string;
  /** The management key's token digest at sign-in. */
  keyTokenDigest: string;
  createdAt: string;
  lastSeenAt: string;
}

export interface ConsoleSessionRepository {
  insert(row: ConsoleSessionRow): Promise<void>;
  find(tokenDigest: string): Promise<ConsoleSessionRow | null>;
  touch(tokenDigest: string, lastSeenAt: string): Promise<void>;
  delete(tokenDigest: string): Promise<void>;
  /** Removes sessions idle since before `before` (ISO-8601); returns how many. */
  deleteIdleSince(before: string): Promise<number>;
}
