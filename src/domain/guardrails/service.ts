import { errors } from '../../errors/index.js';
import type { ChangePublisher } from '../common/changes.js';
import type { Clock } from '../common/clock.js';
import { isUuid, newUuid } from '../common/ids.js';
import type { Page, PageResult } from '../common/page.js';
import type { KeyRecord, KeyRepository } from '../keys/types.js';
import type { MemberRepository } from '../members/types.js';
import type { WorkspaceRecord, WorkspaceRepository } from '../workspaces/types.js';
import { defaultGuardrailId } from '../workspaces/service.js';
import type {
  GuardrailInput,
  GuardrailRecord,
  GuardrailRepository,
  KeyAssignmentRecord,
  MemberAssignmentRecord,
} from './types.js';
import { assignMoving } from './assignment-moves.js';
import { checkLimitPair, toPatch, type ModelLookup } from './validate.js';
import { apiFieldNames, auditedWrite } from '../audit/record.js';
import type { AuditRepository, WriteContext } from '../audit/types.js';

export interface GuardrailRepos {
  guardrails: GuardrailRepository;
  keys: KeyRepository;
  members: MemberRepository;
  workspaces: WorkspaceRepository;
}

export interface GuardrailServiceDeps extends GuardrailRepos {
  catalog: ModelLookup;
  clock: Clock;
  /** One transaction over fresh repositories: each write commits with its audit record. */
  transaction<T>(fn: (repos: GuardrailRepos & { audit: AuditRepository }) => Promise<T>): Promise<T>;
  /**
   * Called after every committed write of a guardrail or an assignment, before the write's
   * response goes out: enforcement caches drop what they hold, so the very next request sees it.
   */
  onChange?: () => void;
  /** Announces every such write on the change feed (topic `guardrails`), for every replica's caches. */
  changes?: ChangePublisher;
}

/** How a guardrail reaches a key: assigned to it, to its creator member, or the workspace default. */
export type GuardrailOrigin = 'key' | 'member' | 'workspace';

export interface GoverningGuardrail {
  guardrail: GuardrailRecord;
  via: GuardrailOrigin[];
}

/** The name a workspace's default guardrail gets when it is materialised. */
export const defaultGuardrailName = (workspaceId: string): string => `Workspace ${workspaceId} Default`;

const notFound = (id: string) => errors.notFound(`Guardrail ${id} not found`);

const entry = (action: string, id: string, changes: Record<string, unknown> | null) => ({
  action,
  targetType: 'guardrail',
  targetId: id,
  changes,
});

/** Guardrails and their key and member assignments (docs/guardrails.md). */
export class GuardrailService {
  constructor(private readonly deps: GuardrailServiceDeps) {}

  async list(workspaceRef: string | undefined, page: Page): Promise<PageResult<GuardrailRecord>> {
    const workspace = await this.workspace(workspaceRef);
    return this.deps.guardrails.list(workspace.id, page);
  }

  async create(
    input: GuardrailInput & { name: string },
    workspaceRef: string | undefined,
    ctx: WriteContext,
  ): Promise<GuardrailRecord> {
    const workspace = await this.workspace(workspaceRef);
    const patch = toPatch(input, this.deps.catalog);
    const record: GuardrailRecord = {
      ...this.blank(workspace.id, input.name),
      ...patch,
      zdr: { ...this.blank(workspace.id, input.name).zdr, ...patch.zdr },
      id: newUuid(),
    };
    checkLimitPair(input, record);
    const changes = { workspace_id: workspace.id, ...apiFieldNames(patch), name: input.name };
    return this.changed(
      auditedWrite(this.deps, ctx, async (repos) => ({
        result: await repos.guardrails.insert(record),
        entry: entry('guardrail.create', record.id, changes),
      })),
      record.id,
    );
  }

  async get(id: string): Promise<GuardrailRecord> {
    const found = isUuid(id) ? await this.deps.guardrails.findById(id.toLowerCase()) : null;
    if (found === null) throw notFound(id);
    return found;
  }

  /** Partial update; the first PATCH of a workspace's default guardrail id materialises it. */
  async update(id: string, input: GuardrailInput, ctx: WriteContext): Promise<GuardrailRecord> {
    const key = id.toLowerCase();
    const patch = toPatch(input, this.deps.catalog);
    const current = isUuid(key) ? await this.deps.guardrails.findById(key) : null;
    let base = current;
    let owner: WorkspaceRecord | null = null;
    if (base === null) {
      owner = isUuid(key) ? await this.workspaceOfDefault(key) : null;
      if (owner === null) throw notFound(id);
      base = { ...this.blank(owner.id, defaultGuardrailName(owner.id)), id: key };
    }
    checkLimitPair(input, {
      limitUsd: patch.limitUsd !== undefined ? patch.limitUsd : base.limitUsd,
      resetInterval: patch.resetInterval !== undefined ? patch.resetInterval : base.resetInterval,
    });
    const materialise = owner === null ? null : base;
    return this.changed(
      auditedWrite(this.deps, ctx, async (repos) => {
        if (materialise !== null) await repos.guardrails.insertIfAbsent(materialise);
        const updated = await repos.guardrails.update(key, patch, this.now());
        if (updated === null) throw notFound(id);
        return { result: updated, entry: entry('guardrail.update', key, apiFieldNames(patch)) };
      }),
      key,
    );
  }

  async delete(id: string, ctx: WriteContext): Promise<void> {
    if (!isUuid(id)) throw notFound(id);
    const key = id.toLowerCase();
    await this.changed(
      auditedWrite(this.deps, ctx, async (repos) => {
        if (!(await repos.guardrails.delete(key))) throw notFound(id);
        return { result: undefined, entry: entry('guardrail.delete', key, null) };
      }),
      key,
    );
  }

  async listKeyAssignments(id: string | null, page: Page): Promise<PageResult<KeyAssignmentRecord>> {
    if (id === null) return this.deps.guardrails.listKeyAssignments(null, page);
    const guardrail = await this.get(id);
    return this.deps.guardrails.listKeyAssignments(guardrail.id, page);
  }

  /** A key holds one guardrail: assigning moves it here. Unknown or management keys: 400. */
  async assignKeys(id: string, keyHashes: string[], assignedBy: string | null, ctx: WriteContext): Promise<number> {
    const guardrail = await this.get(id);
    const unique = [...new Set(keyHashes)];
    const keys = await Promise.all(unique.map((hash) => this.deps.keys.findByHash(hash)));
    const unknown = unique.filter((_, i) => keys[i] === null);
    if (unknown.length > 0) {
      throw errors.invalidRequest(`key_hashes: unknown keys ${unknown.join(', ')}`, {
        field: 'key_hashes',
        key_hashes: unknown,
      });
    }
    const management = unique.filter((_, i) => keys[i]?.kind === 'management');
    if (management.length > 0) {
      throw errors.invalidRequest(`key_hashes: management keys cannot hold a guardrail: ${management.join(', ')}`, {
        field: 'key_hashes',
        key_hashes: management,
      });
    }
    const now = this.now();
    const rows = unique.map((target) => ({
      id: newUuid(),
      guardrailId: guardrail.id,
      target,
      assignedBy,
      createdAt: now,
    }));
    return this.changed(
      auditedWrite(this.deps, ctx, async (repos) => ({
        result: await assignMoving(
          repos,
          { kind: 'keys', guardrailId: guardrail.id, rows },
          { ctx, clock: this.deps.clock },
        ),
        entry: entry('guardrail.keys.assign', guardrail.id, { key_hashes: unique }),
      })),
      guardrail.id,
    );
  }

  async unassignKeys(id: string, keyHashes: string[], ctx: WriteContext): Promise<number> {
    const guardrail = await this.get(id);
    const unique = [...new Set(keyHashes)];
    return this.changed(
      auditedWrite(this.deps, ctx, async (repos) => ({
        result: await repos.guardrails.unassignKeys(guardrail.id, unique),
        entry: entry('guardrail.keys.unassign', guardrail.id, { key_hashes: unique }),
      })),
      guardrail.id,
    );
  }

  async listMemberAssignments(id: string | null, page: Page): Promise<PageResult<MemberAssignmentRecord>> {
    if (id === null) return this.deps.guardrails.listMemberAssignments(null, page);
    const guardrail = await this.get(id);
    return this.deps.guardrails.listMemberAssignments(guardrail.id, page);
  }

  /** A member holds one directly assigned guardrail: assigning moves it here. Unknown ids: 400. */
  async assignMembers(id: string, userIds: string[], assignedBy: string | null, ctx: WriteContext): Promise<number> {
    const guardrail = await this.get(id);
    const unique = [...new Set(userIds)];
    const existing = new Set(await this.deps.members.existing(unique));
    const unknown = unique.filter((u) => !existing.has(u));
    if (unknown.length > 0) {
      throw errors.invalidRequest(`member_user_ids: unknown members ${unknown.join(', ')}`, {
        field: 'member_user_ids',
        member_user_ids: unknown,
      });
    }
    const now = this.now();
    const rows = unique.map((target) => ({
      id: newUuid(),
      guardrailId: guardrail.id,
      target,
      assignedBy,
      createdAt: now,
    }));
    return this.changed(
      auditedWrite(this.deps, ctx, async (repos) => ({
        result: await assignMoving(
          repos,
          { kind: 'members', guardrailId: guardrail.id, rows },
          { ctx, clock: this.deps.clock },
        ),
        entry: entry('guardrail.members.assign', guardrail.id, { member_user_ids: unique }),
      })),
      guardrail.id,
    );
  }

  async unassignMembers(id: string, userIds: string[], ctx: WriteContext): Promise<number> {
    const guardrail = await this.get(id);
    const unique = [...new Set(userIds)];
    return this.changed(
      auditedWrite(this.deps, ctx, async (repos) => ({
        result: await repos.guardrails.unassignMembers(guardrail.id, unique),
        entry: entry('guardrail.members.unassign', guardrail.id, { member_user_ids: unique }),
      })),
      guardrail.id,
    );
  }

  /**
   * The guardrails that apply to calls made with `key` (docs/guardrails.md): the key's assigned
   * guardrail, its creator member's assigned guardrail, and the key workspace's default guardrail
   * once materialised. Each at most once.
   */
  async effectiveFor(key: KeyRecord): Promise<GuardrailRecord[]> {
    return (await this.governing(key)).map((g) => g.guardrail);
  }

  /** effectiveFor with how each guardrail reaches the key (a budget is checked per assignee). */
  async governing(key: KeyRecord): Promise<GoverningGuardrail[]> {
    const found = await Promise.all([
      this.deps.guardrails.guardrailOfKey(key.hash),
      this.deps.guardrails.guardrailOfMember(key.creatorUserId),
      this.deps.guardrails.findById(defaultGuardrailId(key.workspaceId)),
    ]);
    const via: GuardrailOrigin[] = ['key', 'member', 'workspace'];
    const out: GoverningGuardrail[] = [];
    found.forEach((guardrail, i) => {
      const origin = via[i];
      if (guardrail === null || origin === undefined) return;
      const seen = out.find((o) => o.guardrail.id === guardrail.id);
      if (seen === undefined) out.push({ guardrail, via: [origin] });
      else seen.via.push(origin);
    });
    return out;
  }

  /** After a committed write of guardrail `id` (or one of its assignments); the feed never rejects. */
  private async changed<T>(write: Promise<T>, id: string): Promise<T> {
    const result = await write;
    try {
      this.deps.onChange?.();
    } catch {
      // An invalidation hook must not turn a committed write into an error.
    }
    await this.deps.changes?.publish('guardrails', id);
    return result;
  }

  private async workspace(ref: string | undefined): Promise<WorkspaceRecord> {
    const workspace =
      ref === undefined ? await this.deps.workspaces.findDefault() : await this.deps.workspaces.findByIdOrSlug(ref);
    if (workspace === null) {
      throw errors.invalidRequest(`workspace_id: unknown workspace ${ref ?? '(default)'}`, { field: 'workspace_id' });
    }
    return workspace;
  }

  /** The workspace whose default guardrail has this id, if any. */
  private async workspaceOfDefault(id: string): Promise<WorkspaceRecord | null> {
    const limit = 100;
    for (let offset = 0; ; offset += limit) {
      const { rows } = await this.deps.workspaces.list({ offset, limit });
      const match = rows.find((w) => defaultGuardrailId(w.id) === id);
      if (match !== undefined) return match;
      if (rows.length < limit) return null;
    }
  }

  private blank(workspaceId: string, name: string): GuardrailRecord {
    return {
      id: '',
      workspaceId,
      name,
      description: null,
      allowedModels: null,
      allowedProviders: null,
      ignoredModels: null,
      ignoredProviders: null,
      limitUsd: null,
      requestsPerMinute: null,
      tokensPerMinute: null,
      resetInterval: null,
      enforceZdr: null,
      zdr: { vendor_a: null, vendor_b: null, vendor_c: null, vendor_d: null, other: null },
      contentFilterBuiltins: null,
      contentFilters: null,
      includeByokInBudgets: false,
      createdAt: this.now(),
      updatedAt: null,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
