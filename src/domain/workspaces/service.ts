import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { derivedUuid, newUuid } from '../common/ids.js';
import type { Page, PageResult } from '../common/page.js';
import type { KeyRepository } from '../keys/types.js';
import type { MemberRepository } from '../members/types.js';
import { auditedWrite } from '../audit/record.js';
import type { AuditEntry, AuditRepository, WriteContext } from '../audit/types.js';
import type {
  WorkspaceMemberRecord,
  WorkspacePatch,
  WorkspaceRecord,
  WorkspaceRepository,
  WorkspaceRole,
  WorkspaceSettings,
} from './types.js';

export const DEFAULT_WORKSPACE_SLUG = 'default';

export interface WorkspaceRepos {
  workspaces: WorkspaceRepository;
  members: MemberRepository;
  keys: KeyRepository;
}

export interface WorkspaceServiceDeps extends WorkspaceRepos {
  clock: Clock;
  /** Runs `fn` in one transaction over fresh repositories (each write with its audit record). */
  transaction<T>(fn: (repos: WorkspaceRepos & { audit: AuditRepository }) => Promise<T>): Promise<T>;
}

/** The settings of a workspace under the API's field names, for its audit record. */
const settingsFields = (p: Partial<WorkspaceSettings>): Record<string, unknown> => ({
  name: p.name,
  slug: p.slug,
  description: p.description,
  default_text_model: p.defaultTextModel,
  default_image_model: p.defaultImageModel,
  default_provider_sort: p.defaultProviderSort,
  disabled_server_tools: p.disabledServerTools,
  io_logging_api_key_ids: p.ioLoggingApiKeyIds,
  io_logging_sampling_rate: p.ioLoggingSamplingRate,
  is_data_discount_logging_enabled: p.isDataDiscountLoggingEnabled,
  is_observability_broadcast_enabled: p.isObservabilityBroadcastEnabled,
  is_observability_io_logging_enabled: p.isObservabilityIoLoggingEnabled,
  include_byok_in_budgets: p.includeByokInBudgets,
});

/** The id of a workspace's default guardrail, derived from the workspace id. */
export const defaultGuardrailId = (workspaceId: string): string => derivedUuid('default-guardrail', workspaceId);

/** Same membership id for the same pair, so implicit default-workspace members have stable ids. */
const membershipId = (workspaceId: string, userId: string): string =>
  derivedUuid('membership', `${workspaceId}/${userId}`);

export type NewWorkspaceInput = Pick<WorkspaceSettings, 'name' | 'slug'> & Partial<WorkspaceSettings>;

export class WorkspaceService {
  constructor(private readonly deps: WorkspaceServiceDeps) {}

  /** Creates the default workspace if the store has none (idempotent). */
  async ensureDefault(ctx: WriteContext): Promise<WorkspaceRecord> {
    const existing = await this.deps.workspaces.findDefault();
    if (existing !== null) return existing;
    return this.audited(ctx, async (repos) => {
      const created = await repos.workspaces.insert({
        ...this.defaults({ name: 'Default', slug: DEFAULT_WORKSPACE_SLUG }),
        id: newUuid(),
        isDefault: true,
        createdBy: null,
        createdAt: this.now(),
        updatedAt: null,
      });
      return { result: created, entry: this.entry('workspace.create', created.id, settingsFields(created)) };
    });
  }

  async create(input: NewWorkspaceInput, createdBy: string, ctx: WriteContext): Promise<WorkspaceRecord> {
    if ((await this.deps.workspaces.findByIdOrSlug(input.slug)) !== null) {
      throw errors.conflict(`A workspace with slug ${input.slug} already exists`, { field: 'slug' });
    }
    return this.audited(ctx, async (repos) => {
      const created = await repos.workspaces.insert({
        ...this.defaults(input),
        id: newUuid(),
        isDefault: false,
        createdBy,
        createdAt: this.now(),
        updatedAt: null,
      });
      return { result: created, entry: this.entry('workspace.create', created.id, settingsFields(created)) };
    });
  }

  async get(ref: string): Promise<WorkspaceRecord> {
    const workspace = await this.deps.workspaces.findByIdOrSlug(ref);
    if (workspace === null) throw errors.notFound(`Workspace ${ref} not found`);
    return workspace;
  }

  list(page: Page): Promise<PageResult<WorkspaceRecord>> {
    return this.deps.workspaces.list(page);
  }

  async update(ref: string, patch: WorkspacePatch, ctx: WriteContext): Promise<WorkspaceRecord> {
    const workspace = await this.get(ref);
    if (workspace.isDefault && patch.slug !== undefined && patch.slug !== DEFAULT_WORKSPACE_SLUG) {
      throw errors.invalidRequest('slug: the default workspace keeps the slug "default"', { field: 'slug' });
    }
    if (patch.slug !== undefined && patch.slug !== workspace.slug) {
      if ((await this.deps.workspaces.findByIdOrSlug(patch.slug)) !== null) {
        throw errors.conflict(`A workspace with slug ${patch.slug} already exists`, { field: 'slug' });
      }
    }
    return this.audited(ctx, async (repos) => {
      const updated = await repos.workspaces.update(workspace.id, patch, this.now());
      if (updated === null) throw errors.notFound(`Workspace ${ref} not found`);
      return { result: updated, entry: this.entry('workspace.update', workspace.id, settingsFields(patch)) };
    });
  }

  /** Deletes a workspace with its memberships and inactive keys; refused while keys are active. */
  async delete(ref: string, ctx: WriteContext): Promise<void> {
    const workspace = await this.get(ref);
    if (workspace.isDefault) throw errors.invalidRequest('The default workspace cannot be deleted');
    await this.audited(ctx, async (repos) => {
      const active = await repos.keys.countActiveInWorkspace(workspace.id, this.now());
      if (active > 0) {
        throw errors.conflict(
          `Workspace ${workspace.slug} still owns ${active} active API key(s); disable or delete them first`,
          { reason: 'active_keys', active_key_count: active, workspace_id: workspace.id },
        );
      }
      await repos.keys.deleteInWorkspace(workspace.id);
      await repos.workspaces.delete(workspace.id);
      return { result: undefined, entry: this.entry('workspace.delete', workspace.id, { slug: workspace.slug }) };
    });
  }

  async listMembers(ref: string, page: Page): Promise<PageResult<WorkspaceMemberRecord>> {
    const workspace = await this.get(ref);
    if (!workspace.isDefault) return this.deps.workspaces.listMembers(workspace.id, page);
    // Every organization member belongs to the default workspace implicitly, with the role set
    // there explicitly if any.
    const { rows, total } = await this.deps.members.list(page);
    const explicit = await this.deps.workspaces.listMembers(workspace.id, { offset: 0, limit: 10_000 });
    const roles = new Map(explicit.rows.map((r) => [r.userId, r.role]));
    return {
      total,
      rows: rows.map((m) => ({
        id: membershipId(workspace.id, m.id),
        workspaceId: workspace.id,
        userId: m.id,
        role: roles.get(m.id) ?? (m.role === 'org:member' ? 'member' : 'admin'),
        createdAt: m.createdAt,
      })),
    };
  }

  /**
   * Sets one member's role in a workspace (in the default workspace too, where it overrides the
   * implicit `member`); a member not yet in a workspace is added with that role.
   */
  async setMemberRole(
    ref: string,
    userId: string,
    role: WorkspaceRole,
    ctx: WriteContext,
  ): Promise<WorkspaceMemberRecord> {
    const workspace = await this.get(ref);
    if ((await this.deps.members.findById(userId)) === null) throw errors.notFound(`No member ${userId}`);
    const row: WorkspaceMemberRecord = {
      id: membershipId(workspace.id, userId),
      workspaceId: workspace.id,
      userId,
      role,
      createdAt: this.now(),
    };
    return this.audited(ctx, async (repos) => {
      const [saved] = await repos.workspaces.upsertMembers([row]);
      return {
        result: saved ?? row,
        entry: this.entry('workspace.members.set_role', workspace.id, { user_id: userId, role }),
      };
    });
  }

  async addMembers(ref: string, userIds: string[], ctx: WriteContext): Promise<WorkspaceMemberRecord[]> {
    const workspace = await this.get(ref);
    if (workspace.isDefault) {
      throw errors.invalidRequest('Every member belongs to the default workspace already');
    }
    const unique = [...new Set(userIds)];
    const members = await Promise.all(unique.map((id) => this.deps.members.findById(id)));
    const unknown = unique.filter((_, i) => members[i] === null);
    if (unknown.length > 0) {
      throw errors.invalidRequest(`user_ids: unknown members ${unknown.join(', ')}`, {
        field: 'user_ids',
        user_ids: unknown,
      });
    }
    const now = this.now();
    const rows: WorkspaceMemberRecord[] = members.flatMap((m) =>
      m === null
        ? []
        : [
            {
              id: membershipId(workspace.id, m.id),
              workspaceId: workspace.id,
              userId: m.id,
              role: m.role === 'org:member' ? 'member' : 'admin',
              createdAt: now,
            },
          ],
    );
    return this.audited(ctx, async (repos) => ({
      result: await repos.workspaces.upsertMembers(rows),
      entry: this.entry('workspace.members.add', workspace.id, { user_ids: unique }),
    }));
  }

  /** All or nothing: if any listed member holds an active API key here, nobody is removed (409). */
  async removeMembers(ref: string, userIds: string[], ctx: WriteContext): Promise<number> {
    const workspace = await this.get(ref);
    if (workspace.isDefault) {
      throw errors.invalidRequest('Members cannot be removed from the default workspace');
    }
    const unique = [...new Set(userIds)];
    return this.audited(ctx, async (repos) => {
      const blocking = await repos.keys.activeHolders(workspace.id, unique, this.now());
      if (blocking.length > 0) {
        throw errors.conflict('Some members still hold active API keys in this workspace; nothing was removed', {
          user_ids: blocking.sort(),
        });
      }
      return {
        result: await repos.workspaces.removeMembers(workspace.id, unique),
        entry: this.entry('workspace.members.remove', workspace.id, { user_ids: unique }),
      };
    });
  }

  private audited<T>(
    ctx: WriteContext,
    write: (repos: WorkspaceRepos & { audit: AuditRepository }) => Promise<{ result: T; entry: AuditEntry }>,
  ): Promise<T> {
    return auditedWrite(this.deps, ctx, write);
  }

  private entry(action: string, workspaceId: string, changes: AuditEntry['changes']): AuditEntry {
    return { action, targetType: 'workspace', targetId: workspaceId, changes };
  }

  private defaults(input: NewWorkspaceInput): WorkspaceSettings {
    return {
      name: input.name,
      slug: input.slug,
      description: input.description ?? null,
      defaultTextModel: input.defaultTextModel ?? null,
      defaultImageModel: input.defaultImageModel ?? null,
      defaultProviderSort: input.defaultProviderSort ?? null,
      disabledServerTools: input.disabledServerTools ?? null,
      ioLoggingApiKeyIds: input.ioLoggingApiKeyIds ?? null,
      ioLoggingSamplingRate: input.ioLoggingSamplingRate ?? 1,
      isDataDiscountLoggingEnabled: input.isDataDiscountLoggingEnabled ?? false,
      isObservabilityBroadcastEnabled: input.isObservabilityBroadcastEnabled ?? false,
      isObservabilityIoLoggingEnabled: input.isObservabilityIoLoggingEnabled ?? false,
      includeByokInBudgets: input.includeByokInBudgets ?? false,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
