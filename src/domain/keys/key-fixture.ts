import { digestToken } from './tokens.js';
import type { KeyRecord } from './types.js';

/** A stored API key for unit tests: `token`'s digest, hash `h1` unless `patch` says otherwise. */
export function keyRecord(token: string, patch: Partial<KeyRecord> = {}): KeyRecord {
  return {
    hash: 'h1',
    tokenDigest: digestToken(token),
    kind: 'api',
    name: 'k',
    label: 'sk-sy-v1-abc...def',
    workspaceId: 'ws',
    creatorUserId: 'user_1',
    disabled: false,
    limit: null,
    limitReset: null,
    includeByokInLimit: false,
    expiresAt: null,
    externalUser: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    ...patch,
  };
}
