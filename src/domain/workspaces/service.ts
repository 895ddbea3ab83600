import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { derivedUuid, newUuid } from '../common/ids.js';
import type { Page, PageResult } from '../common/page.js';
import type { KeyRepository } from '../keys/types.js';
import type { MemberRepository } from '../members/types.js';
import type {
  WorkspaceMemberRecord,
  WorkspacePatch,
  WorkspaceRecord,
  WorkspaceRepository,
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
  /** Runs `fn` in one transaction over fresh repositories. */
  transaction<T>(fn: (repos: WorkspaceRepos) => Promise<T>): Promise<T>;
}

/** The id of a workspace's default guardrail, derived from the workspace id. */
export const defaultGuardrailId = (workspaceId: string): string => derivedUuid('default-guardrail', workspaceId);

/** Same membership id for the same pair, so implicit default-workspace members have stable ids. */
const membershipId = (workspaceId: string, userId: string): string =>
  derivedUuid('membership', `${workspaceId}/${userId}`);

export type NewWorkspaceInput = Pick<WorkspaceSettings, 'name' | 'slug'> & Partial<WorkspaceSettings>;

export class WorkspaceService {
  constructor(private readonly deps: WorkspaceServiceDeps) {}

  /** Creates the default workspace if the store has none (idempotent). */
  async ensureDefault(): Promise<WorkspaceRecord> {
    const existing = await this.deps.workspaces.findDefault();
    if (existing !== null) return existing;
    return this.deps.workspaces.insert({
      ...this.defaults({ name: 'Default', slug: DEFAULT_WORKSPACE_SLUG }),
      id: newUuid(),
      isDefault: true,
      createdBy: null,
      createdAt: this.now(),
      updatedAt: null,
    });
  }

  async create(input: NewWorkspaceInput, createdBy: string): Promise<WorkspaceRecord> {
    if ((await this.deps.workspaces.findByIdOrSlug(input.slug)) !== null) {
      throw errors.conflict(`A workspace with slug ${input.slug} already exists`, { field: 'slug' });
    }
    return this.deps.workspaces.insert({
      ...this.defaults(input),
      id: newUuid(),
      isDefault: false,
      createdBy,
      createdAt: this.now(),
      updatedAt: null,
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

  async update(ref: string, patch: WorkspacePatch): Promise<WorkspaceRecord> {
    const workspace = await this.get(ref);
    if (workspace.isDefault && patch.slug !== undefined && patch.slug !== DEFAULT_WORKSPACE_SLUG) {
      throw errors.invalidRequest('slug: the default workspace keeps the slug "default"', { field: 'slug' });
    }
    if (patch.slug !== undefined && patch.slug !== workspace.slug) {
      if ((await this.deps.workspaces.findByIdOrSlug(patch.slug)) !== null) {
        throw errors.conflict(`A workspace with slug ${patch.slug} already exists`, { field: 'slug' });
      }
    }
    const updated = await this.deps.workspaces.update(workspace.id, patch, this.now());
    if (updated === null) throw errors.notFound(`Workspace ${ref} not found`);
    return updated;
  }

  /** Deletes a workspace with its memberships and inactive keys; refused while keys are active. */
  async delete(ref: string): Promise<void> {
    const workspace = await this.get(ref);
    if (workspace.isDefault) throw errors.invalidRequest('The default workspace cannot be deleted');
    await this.deps.transaction(async (repos) => {
      if ((await repos.keys.countActiveInWorkspace(workspace.id, this.now())) > 0) {
        throw errors.conflict('This workspace still has active API keys; disable or delete them first');
      }
      await repos.keys.deleteInWorkspace(workspace.id);
      await repos.workspaces.delete(workspace.id);
    });
  }

  async listMembers(ref: string, page: Page): Promise<PageResult<WorkspaceMemberRecord>> {
    const workspace = await this.get(ref);
    if (!workspace.isDefault) return this.deps.workspaces.listMembers(workspace.id, page);
    // Every organization member belongs to the default workspace implicitly.
    const { rows, total } = await this.deps.members.list(page);
    return {
      total,
      rows: rows.map((m) => ({
        id: membershipId(workspace.id, m.id),
        workspaceId: workspace.id,
        userId: m.id,
        role: m.role === 'org:admin' ? 'admin' : 'member',
        createdAt: m.createdAt,
      })),
    };
  }

  async addMembers(ref: string, userIds: string[]): Promise<WorkspaceMemberRecord[]> {
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
    return this.deps.workspaces.upsertMembers(
      members.flatMap((m) =>
        m === null
          ? []
          : [
              {
                id: membershipId(workspace.id, m.id),
                workspaceId: workspace.id,
                userId: m.id,
                role: m.role === 'org:admin' ? 'admin' : 'member',
                createdAt: now,
              },
            ],
      ),
    );
  }

  /** All or nothing: if any listed member holds an active API key here, nobody is removed (409). */
  async removeMembers(ref: string, userIds: string[]): Promise<number> {
    const workspace = await this.get(ref);
    if (workspace.isDefault) {
      throw errors.invalidRequest('Members cannot be removed from the default workspace');
    }
    const unique = [...new Set(userIds)];
    return this.deps.transaction(async (repos) => {
      const blocking = await repos.keys.activeHolders(workspace.id, unique, this.now());
      if (blocking.length > 0) {
        throw errors.conflict('Some members still hold active API keys in this workspace; nothing was removed', {
          user_ids: blocking.sort(),
        });
      }
      return repos.workspaces.removeMembers(workspace.id, unique);
    });
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
