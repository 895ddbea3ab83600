import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import type { ChangePublisher } from '../common/changes.js';
import type { KeyAuthenticator } from './authenticator.js';
import { digestToken, generateToken, maskToken, newKeyHash } from './tokens.js';
import type { KeyKind, KeyPatch, KeyRecord, KeyRepository, LimitReset } from './types.js';
import type { MemberRepository } from '../members/types.js';
import type { WorkspaceRecord, WorkspaceRepository } from '../workspaces/types.js';
import { recordAudit } from '../audit/record.js';
import type { AuditEntry, AuditRepository, WriteContext } from '../audit/types.js';

export interface KeyServiceDeps {
  keys: KeyRepository;
  members: MemberRepository;
  workspaces: WorkspaceRepository;
  authenticator: KeyAuthenticator;
  clock: Clock;
  /** Tells every replica's caches (this one's included) that a key changed. */
  changes?: ChangePublisher;
  /** Runs `fn` in one transaction: each write and its audit record commit together. */
  transaction<T>(fn: (repos: { keys: KeyRepository; audit: AuditRepository }) => Promise<T>): Promise<T>;
}

/** A key patch under the API's field names. */
const patchFields = (p: KeyPatch): Record<string, unknown> => ({
  name: p.name,
  disabled: p.disabled,
  limit: p.limit,
  limit_reset: p.limitReset,
  include_byok_in_limit: p.includeByokInLimit,
  expires_at: p.expiresAt,
});

/** The fields of a key that an audit record shows (never its token or digest). */
const keyFields = (r: KeyRecord): Record<string, unknown> => ({
  kind: r.kind,
  name: r.name,
  workspace_id: r.workspaceId,
  creator_user_id: r.creatorUserId,
  limit: r.limit,
  limit_reset: r.limitReset,
  include_byok_in_limit: r.includeByokInLimit,
  expires_at: r.expiresAt,
  external_user: r.externalUser,
});

export interface CreateKeyInput {
  name: string;
  limit?: number | null;
  limitReset?: LimitReset | null;
  includeByokInLimit?: boolean;
  expiresAt?: string | null;
  workspaceRef?: string;
  creatorUserId?: string | null;
  external?: { user: string; apiKey?: string };
}

export interface IssuedKey {
  record: KeyRecord;
  token: string;
}

/** Creating, changing, rotating and deleting keys; every write keeps the auth cache right. */
export class KeyService {
  constructor(private readonly deps: KeyServiceDeps) {}

  /** Creates an API key (the only kind the HTTP API may create). */
  async createApiKey(input: CreateKeyInput, actingUserId: string, ctx: WriteContext): Promise<IssuedKey> {
    const workspace = await this.resolveWorkspace(input.workspaceRef);
    const creator = input.creatorUserId ?? actingUserId;
    if ((await this.deps.members.findById(creator)) === null) {
      throw errors.invalidRequest(`creator_user_id: no member ${creator}`, { field: 'creator_user_id' });
    }
    if (!workspace.isDefault && !(await this.deps.workspaces.isMember(workspace.id, creator))) {
      throw errors.invalidRequest(`creator_user_id: ${creator} is not a member of workspace ${workspace.slug}`, {
        field: 'creator_user_id',
      });
    }
    if (input.expiresAt != null && Date.parse(input.expiresAt) <= this.deps.clock.now().getTime()) {
      throw errors.invalidRequest('expires_at must be in the future', { field: 'expires_at' });
    }
    if (input.external?.apiKey !== undefined && input.external.apiKey.length < 32) {
      throw errors.invalidRequest('external.api_key must be at least 32 characters', { field: 'external.api_key' });
    }
    return this.issue(
      {
        kind: 'api',
        name: input.name,
        workspaceId: workspace.id,
        creatorUserId: creator,
        limit: input.limit ?? null,
        limitReset: input.limitReset ?? null,
        includeByokInLimit: input.includeByokInLimit ?? false,
        expiresAt: input.expiresAt ?? null,
        externalUser: input.external?.user ?? null,
        externalApiKeyDigest: input.external?.apiKey === undefined ? null : digestToken(input.external.apiKey),
      },
      { ctx },
    );
  }

  /** Creates a management key for a member (CLI and console only). `token` lets bootstrap fix it. */
  async createManagementKey(
    input: { name: string; memberId: string; token?: string },
    ctx: WriteContext,
  ): Promise<IssuedKey> {
    const workspace = await this.resolveWorkspace(undefined);
    if ((await this.deps.members.findById(input.memberId)) === null) {
      throw errors.invalidRequest(`no member ${input.memberId}`, { field: 'member' });
    }
    return this.issue(
      {
        kind: 'management',
        name: input.name,
        workspaceId: workspace.id,
        creatorUserId: input.memberId,
        limit: null,
        limitReset: null,
        includeByokInLimit: false,
        expiresAt: null,
        externalUser: null,
        externalApiKeyDigest: null,
      },
      { ctx, token: input.token },
    );
  }

  async list(query: { workspaceRef?: string; includeDisabled: boolean; offset: number }): Promise<KeyRecord[]> {
    const workspace = await this.resolveWorkspace(query.workspaceRef);
    return this.deps.keys.list({
      workspaceId: workspace.id,
      includeDisabled: query.includeDisabled,
      offset: query.offset,
      limit: 500,
      kind: 'api',
    });
  }

  /** An API key by hash; management keys are not visible through the API. */
  async get(hash: string): Promise<KeyRecord> {
    const record = await this.deps.keys.findByHash(hash);
    if (record === null || record.kind !== 'api') throw errors.notFound('Key not found');
    return record;
  }

  async update(hash: string, input: KeyPatch, ctx: WriteContext): Promise<KeyRecord> {
    await this.get(hash);
    const patch = { ...input };
    if (patch.expiresAt !== undefined && patch.expiresAt !== null) {
      const at = Date.parse(patch.expiresAt);
      if (at <= this.deps.clock.now().getTime())
        throw errors.invalidRequest('expires_at must be in the future', { field: 'expires_at' });
      patch.expiresAt = new Date(at).toISOString();
    }
    const updated = await this.audited(ctx, { action: 'key.update', hash, changes: patchFields(patch) }, (repos) =>
      repos.keys.update(hash, patch, this.deps.clock.now().toISOString()),
    );
    await this.changed(hash);
    return updated;
  }

  async delete(hash: string, ctx: WriteContext): Promise<void> {
    await this.get(hash);
    await this.audited(ctx, { action: 'key.delete', hash, changes: null }, (repos) => repos.keys.delete(hash));
    await this.changed(hash);
  }

  /** New token, same hash, name, limits and usage; the old token stops working at once. */
  async rotate(hash: string, allowedKind: KeyKind, ctx: WriteContext): Promise<IssuedKey> {
    const record = await this.deps.keys.findByHash(hash);
    if (record === null) throw errors.notFound('Key not found');
    if (record.kind !== allowedKind) {
      if (allowedKind === 'api')
        throw errors.forbidden('Management keys can only be rotated through the CLI or console');
      throw errors.invalidRequest('That key is an API key; rotate it through the API');
    }
    const token = generateToken();
    this.deps.authenticator.forget(hash);
    const updated = await this.audited(ctx, { action: 'key.rotate', hash, changes: { kind: record.kind } }, (repos) =>
      repos.keys.replaceDigest(hash, digestToken(token), maskToken(token), this.deps.clock.now().toISOString()),
    );
    this.deps.authenticator.learn(updated.tokenDigest);
    await this.changed(hash);
    return { record: updated, token };
  }

  /**
   * Runs a write on one key in a transaction with its audit record. A write that finds no key
   * (null or false) rolls back, records nothing and answers 404.
   */
  private async audited<T>(
    ctx: WriteContext,
    what: { action: string; hash: string; changes: AuditEntry['changes'] },
    write: (repos: { keys: KeyRepository }) => Promise<T | null | false>,
  ): Promise<T> {
    return this.deps.transaction(async (repos) => {
      const result = await write(repos);
      if (result === null || result === false) throw errors.notFound('Key not found');
      const entry = { action: what.action, targetType: 'key', targetId: what.hash, changes: what.changes };
      await recordAudit(repos.audit, entry, { ctx, clock: this.deps.clock });
      return result;
    });
  }

  /** After a committed write: this process forgets at once, other replicas on the notification. */
  private async changed(hash: string): Promise<void> {
    this.deps.authenticator.forget(hash);
    await this.deps.changes?.publish('keys', hash);
  }

  async resolveWorkspace(ref: string | undefined): Promise<WorkspaceRecord> {
    const workspace =
      ref === undefined ? await this.deps.workspaces.findDefault() : await this.deps.workspaces.findByIdOrSlug(ref);
    if (workspace === null) {
      if (ref === undefined) throw errors.internal(new Error('default workspace missing'));
      throw errors.notFound(`Workspace ${ref} not found`);
    }
    return workspace;
  }

  private async issue(
    key: Omit<KeyRecord, 'hash' | 'tokenDigest' | 'label' | 'createdAt' | 'updatedAt' | 'disabled'> & {
      externalApiKeyDigest: string | null;
    },
    options: { ctx: WriteContext; token?: string | undefined },
  ): Promise<IssuedKey> {
    const token = options.token ?? generateToken();
    const record = await this.deps.transaction(async (repos) => {
      const inserted = await repos.keys.insert({
        ...key,
        hash: newKeyHash(),
        tokenDigest: digestToken(token),
        label: maskToken(token),
        createdAt: this.deps.clock.now().toISOString(),
      });
      const entry = { action: 'key.create', targetType: 'key', targetId: inserted.hash, changes: keyFields(inserted) };
      await recordAudit(repos.audit, entry, { ctx: options.ctx, clock: this.deps.clock });
      return inserted;
    });
    // Known here at once; other replicas add the digest on the notification.
    this.deps.authenticator.learn(record.tokenDigest);
    await this.deps.changes?.publish('keys', record.hash);
    return { record, token };
  }
}
