import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import type { ChangePublisher } from '../common/changes.js';
import type { KeyAuthenticator } from './authenticator.js';
import { digestToken, generateToken, maskToken, newKeyHash } from './tokens.js';
import type { KeyKind, KeyPatch, KeyRecord, KeyRepository, LimitReset } from './types.js';
import type { MemberRepository } from '../members/types.js';
import type { WorkspaceRecord, WorkspaceRepository } from '../workspaces/types.js';

export interface KeyServiceDeps {
  keys: KeyRepository;
  members: MemberRepository;
  workspaces: WorkspaceRepository;
  authenticator: KeyAuthenticator;
  clock: Clock;
  /** Tells every replica's caches (this one's included) that a key changed. */
  changes?: ChangePublisher;
}

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
  async createApiKey(input: CreateKeyInput, actingUserId: string): Promise<IssuedKey> {
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
    return this.issue({
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
    });
  }

  /** Creates a management key for a member (CLI and console only). `token` lets bootstrap fix it. */
  async createManagementKey(input: { name: string; memberId: string; token?: string }): Promise<IssuedKey> {
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
      input.token,
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

  async update(hash: string, patch: KeyPatch): Promise<KeyRecord> {
    await this.get(hash);
    const updated = await this.deps.keys.update(hash, patch, this.deps.clock.now().toISOString());
    if (updated === null) throw errors.notFound('Key not found');
    await this.changed(hash);
    return updated;
  }

  async delete(hash: string): Promise<void> {
    await this.get(hash);
    await this.deps.keys.delete(hash);
    await this.changed(hash);
  }

  /** New token, same hash, name, limits and usage; the old token stops working at once. */
  async rotate(hash: string, allowedKind: KeyKind): Promise<IssuedKey> {
    const record = await this.deps.keys.findByHash(hash);
    if (record === null) throw errors.notFound('Key not found');
    if (record.kind !== allowedKind) {
      if (allowedKind === 'api')
        throw errors.forbidden('Management keys can only be rotated through the CLI or console');
      throw errors.invalidRequest('That key is an API key; rotate it through the API');
    }
    const token = generateToken();
    this.deps.authenticator.forget(hash);
    const updated = await this.deps.keys.replaceDigest(
      hash,
      digestToken(token),
      maskToken(token),
      this.deps.clock.now().toISOString(),
    );
    await this.changed(hash);
    if (updated === null) throw errors.notFound('Key not found');
    return { record: updated, token };
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
    presetToken?: string,
  ): Promise<IssuedKey> {
    const token = presetToken ?? generateToken();
    const record = await this.deps.keys.insert({
      ...key,
      hash: newKeyHash(),
      tokenDigest: digestToken(token),
      label: maskToken(token),
      createdAt: this.deps.clock.now().toISOString(),
    });
    return { record, token };
  }
}
