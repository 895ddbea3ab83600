import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { newUuid } from '../common/ids.js';
import type { Page, PageResult } from '../common/page.js';
import type { KeyRecord } from '../keys/types.js';
import type { WorkspaceRepository } from '../workspaces/types.js';
import { checkConfig, versionFromBody, type PresetModelLookup } from './config.js';
import { checkSlug } from './reference.js';
import { auditedWrite } from '../audit/record.js';
import type { AuditRepository, WriteContext } from '../audit/types.js';
import type { PresetRecord, PresetRepository, PresetStatus, PresetVersionRecord, ResolvedPreset } from './types.js';

export interface PresetServiceDeps {
  presets: PresetRepository;
  workspaces: Pick<WorkspaceRepository, 'findByIdOrSlug'>;
  catalog: PresetModelLookup;
  clock: Clock;
  /** One transaction: each write commits with its audit record. */
  transaction<T>(fn: (repos: { presets: PresetRepository; audit: AuditRepository }) => Promise<T>): Promise<T>;
  /** Told after every committed preset write (cache invalidation, change feed). Must not throw. */
  changed(presetId: string): Promise<void>;
}

/** PATCH /presets/{slug}: every field optional. */
export interface PresetUpdate {
  name?: string;
  description?: string | null;
  status?: PresetStatus;
  /** Version number to designate (roll back or forward). */
  designatedVersion?: number;
}

const notFound = (slug: string) => errors.notFound(`Preset ${slug} not found`);
const VERSION = /^[1-9][0-9]{0,8}$/;

/** Presets and their versions (docs/presets.md), always within one workspace. */
export class PresetService {
  constructor(private readonly deps: PresetServiceDeps) {}

  /**
   * The workspace a request works in: the key's own, or for a management key the one named by
   * `workspace_id` (UUID or slug). An API key naming another workspace is refused (403).
   */
  async workspaceFor(key: KeyRecord, ref: string | undefined): Promise<string> {
    if (ref === undefined) return key.workspaceId;
    const workspace = await this.deps.workspaces.findByIdOrSlug(ref);
    if (workspace === null)
      throw errors.invalidRequest(`workspace_id: unknown workspace ${ref}`, { field: 'workspace_id' });
    if (key.kind !== 'management' && workspace.id !== key.workspaceId) {
      throw errors.forbidden('API keys can only use the presets of their own workspace');
    }
    return workspace.id;
  }

  list(workspaceId: string, page: Page): Promise<PageResult<PresetRecord>> {
    return this.deps.presets.list(workspaceId, page);
  }

  async get(workspaceId: string, slug: string): Promise<ResolvedPreset> {
    const found = await this.deps.presets.findResolved(workspaceId, checkSlug(slug, 'slug', 'path'));
    if (found === null) throw notFound(slug);
    return found;
  }

  async listVersions(workspaceId: string, slug: string, page: Page): Promise<PageResult<PresetVersionRecord>> {
    const preset = await this.preset(workspaceId, slug);
    return this.deps.presets.listVersions(preset.id, page);
  }

  async getVersion(workspaceId: string, slug: string, version: string): Promise<PresetVersionRecord> {
    checkSlug(slug, 'slug', 'path');
    if (!VERSION.test(version)) {
      throw errors.invalidRequest(`version: "${version.slice(0, 20)}" is not a version number (an integer from 1)`, {
        field: 'version',
        location: 'path',
      });
    }
    const preset = await this.preset(workspaceId, slug);
    const found = await this.deps.presets.findVersion(preset.id, Number(version));
    if (found === null) throw errors.notFound(`Preset ${slug} has no version ${version}`);
    return found;
  }

  /**
   * POST /presets/{slug}/chat/completions: keeps the body's preset fields and
   * system prompt as a new version, creating the preset (name = slug) when the workspace has none
   * by that slug, and designates the new version. Status, name and description stay as they are.
   */
  async saveVersion(input: {
    workspaceId: string;
    slug: string;
    body: Readonly<Record<string, unknown>>;
    creatorUserId: string;
    ctx: WriteContext;
  }): Promise<ResolvedPreset> {
    const slug = checkSlug(input.slug, 'slug', 'path');
    const { config, systemPrompt } = versionFromBody(input.body);
    checkConfig(config, this.deps.catalog, input.body);
    const now = this.now();
    const saved = await auditedWrite(this.deps, input.ctx, async ({ presets }) => {
      const preset = await presets.insertIfAbsent({
        id: newUuid(),
        workspaceId: input.workspaceId,
        slug,
        name: slug,
        description: null,
        status: 'active',
        statusUpdatedAt: null,
        creatorUserId: input.creatorUserId,
        designatedVersionId: null,
        latestVersion: 0,
        createdAt: now,
        updatedAt: now,
      });
      const version = await presets.insertVersion({
        id: newUuid(),
        presetId: preset.id,
        version: await presets.nextVersion(preset.id),
        config,
        systemPrompt,
        creatorId: input.creatorUserId,
        createdAt: now,
        updatedAt: now,
      });
      const updated = await presets.update(preset.id, { designatedVersionId: version.id }, now);
      if (updated === null) throw notFound(slug);
      const changes = { workspace_id: input.workspaceId, slug, version: version.version, designated: true };
      return {
        result: { preset: updated, version },
        entry: { action: 'preset.version.create', targetType: 'preset', targetId: preset.id, changes },
      };
    });
    await this.deps.changed(saved.preset.id);
    return saved;
  }

  /** PATCH /presets/{slug}: name, description, status and the designated version. */
  async update(workspaceId: string, slug: string, input: PresetUpdate, ctx: WriteContext): Promise<ResolvedPreset> {
    const current = await this.preset(workspaceId, slug);
    const now = this.now();
    let designated: PresetVersionRecord | null = null;
    if (input.designatedVersion !== undefined) {
      designated = await this.deps.presets.findVersion(current.id, input.designatedVersion);
      if (designated === null) {
        throw errors.invalidRequest(`designated_version: preset ${slug} has no version ${input.designatedVersion}`, {
          field: 'designated_version',
        });
      }
    }
    const statusChanges = input.status !== undefined && input.status !== current.status;
    const changes = {
      name: input.name,
      description: input.description,
      status: input.status,
      designated_version: input.designatedVersion,
    };
    const updated = await auditedWrite(this.deps, ctx, async ({ presets }) => {
      const written = await presets.update(
        current.id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(statusChanges ? { status: input.status, statusUpdatedAt: now } : {}),
          ...(designated !== null ? { designatedVersionId: designated.id } : {}),
        },
        now,
      );
      if (written === null) throw notFound(slug);
      return {
        result: written,
        entry: { action: 'preset.update', targetType: 'preset', targetId: current.id, changes },
      };
    });
    await this.deps.changed(updated.id);
    const version =
      designated ??
      (updated.designatedVersionId === null
        ? null
        : await this.deps.presets.findVersionById(updated.designatedVersionId));
    return { preset: updated, version };
  }

  private async preset(workspaceId: string, slug: string): Promise<PresetRecord> {
    const found = await this.deps.presets.findBySlug(workspaceId, checkSlug(slug, 'slug', 'path'));
    if (found === null) throw notFound(slug);
    return found;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
