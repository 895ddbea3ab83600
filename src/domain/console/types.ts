/**
 * One signed-in console session as stored (the session token itself is never stored). A session
 * stands either for a management key (break-glass sign-in: `keyHash`, `keyTokenDigest`) or for
 * an organization member signed in through single sign-on (`memberId`).
 */
export interface ConsoleSessionRow {
  tokenDigest: string;
  keyHash: string | null;
  /** The management key's token digest at sign-in. */
  keyTokenDigest: string | null;
  memberId: string | null;
  createdAt: string;
  lastSeenAt: string;
}

export interface ConsoleSessionRepository {
  insert(row: ConsoleSessionRow): Promise<void>;
  find(tokenDigest: string): Promise<ConsoleSessionRow | null>;
  touch(tokenDigest: string, lastSeenAt: string): Promise<void>;
  delete(tokenDigest: string): Promise<void>;
  /** Ends every session of one member (disabled); returns how many. */
  deleteForMember(memberId: string): Promise<number>;
  /** Removes sessions idle since before `before` (ISO-8601); returns how many. */
  deleteIdleSince(before: string): Promise<number>;
}
