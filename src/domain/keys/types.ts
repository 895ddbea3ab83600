export type KeyKind = 'api' | 'management';
export type LimitReset = 'daily' | 'weekly' | 'monthly';

/** A stored key. The token itself is never stored; `tokenDigest` is its SHA-256. */
export interface KeyRecord {
  hash: string;
  tokenDigest: string;
  kind: KeyKind;
  name: string;
  label: string;
  workspaceId: string;
  creatorUserId: string;
  disabled: boolean;
  limit: number | null;
  limitReset: LimitReset | null;
  includeByokInLimit: boolean;
  expiresAt: string | null;
  externalUser: string | null;
  createdAt: string;
  updatedAt: string | null;
}

export interface NewKey {
  hash: string;
  tokenDigest: string;
  kind: KeyKind;
  name: string;
  label: string;
  workspaceId: string;
  creatorUserId: string;
  limit: number | null;
  limitReset: LimitReset | null;
  includeByokInLimit: boolean;
  expiresAt: string | null;
  externalUser: string | null;
  externalApiKeyDigest: string | null;
  createdAt: string;
}

export interface KeyPatch {
  name?: string;
  disabled?: boolean;
  limit?: number | null;
  limitReset?: LimitReset | null;
  includeByokInLimit?: boolean;
  /** ISO-8601, in the future; null: never expires. */
  expiresAt?: string | null;
}

export interface KeyListQuery {
  workspaceId: string;
  includeDisabled: boolean;
  offset: number;
  limit: number;
  kind: KeyKind;
}

export interface KeyRepository {
  insert(key: NewKey): Promise<KeyRecord>;
  findByHash(hash: string): Promise<KeyRecord | null>;
  findByDigest(tokenDigest: string): Promise<KeyRecord | null>;
  /** Up to `limit` stored token digests greater than `after` (null: from the first), ascending. */
  listDigests(after: string | null, limit: number): Promise<string[]>;
  list(query: KeyListQuery): Promise<KeyRecord[]>;
  listManagement(): Promise<KeyRecord[]>;
  update(hash: string, patch: KeyPatch, now: string): Promise<KeyRecord | null>;
  replaceDigest(hash: string, tokenDigest: string, label: string, now: string): Promise<KeyRecord | null>;
  delete(hash: string): Promise<boolean>;
  /** Users among `userIds` holding an active (not disabled, not expired) API key in the workspace. */
  activeHolders(workspaceId: string, userIds: string[], now: string): Promise<string[]>;
  countActiveInWorkspace(workspaceId: string, now: string): Promise<number>;
  deleteInWorkspace(workspaceId: string): Promise<number>;
}
