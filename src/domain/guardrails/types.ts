import type { ZdrGroup } from '../../catalog/index.js';
import type { BuiltinSlug, CustomFilterConfig, FilterAction, ScanScope } from '../../filters/index.js';
import type { Page, PageResult } from '../common/page.js';

export type ResetInterval = 'daily' | 'weekly' | 'monthly';

/** The five per-group ZDR flags (vendor_a … vendor_d, other); null = not set. */
export type ZdrFlags = Record<ZdrGroup, boolean | null>;

/** A stored builtin filter; `scan_scope` only on `regex-prompt-injection` (always set there). */
export interface BuiltinFilterEntry {
  slug: BuiltinSlug;
  action: FilterAction;
  scan_scope?: ScanScope;
}

export type CustomFilterEntry = CustomFilterConfig;

export interface GuardrailSettings {
  name: string;
  description: string | null;
  /** Canonical slugs. */
  allowedModels: string[] | null;
  allowedProviders: string[] | null;
  /** Canonical slugs. */
  ignoredModels: string[] | null;
  ignoredProviders: string[] | null;
  limitUsd: number | null;
  /** Calls per minute per assignee (fixed UTC minutes); null = no limit. */
  requestsPerMinute: number | null;
  /** Prompt + completion tokens per minute per assignee; null = no limit. */
  tokensPerMinute: number | null;
  resetInterval: ResetInterval | null;
  enforceZdr: boolean | null;
  zdr: ZdrFlags;
  contentFilterBuiltins: BuiltinFilterEntry[] | null;
  contentFilters: CustomFilterEntry[] | null;
  includeByokInBudgets: boolean;
}

export interface GuardrailRecord extends GuardrailSettings {
  id: string;
  workspaceId: string;
  createdAt: string;
  updatedAt: string | null;
}

/** Column-level partial update (the service has already resolved rule Z and canonical slugs). */
export type GuardrailPatch = Partial<Omit<GuardrailSettings, 'zdr'>> & { zdr?: Partial<ZdrFlags> };

/** Create/update input as the caller sent it (wire-agnostic, every field optional). */
export interface GuardrailInput {
  name?: string;
  description?: string | null;
  allowedModels?: string[] | null;
  allowedProviders?: string[] | null;
  ignoredModels?: string[] | null;
  ignoredProviders?: string[] | null;
  limitUsd?: number | null;
  requestsPerMinute?: number | null;
  tokensPerMinute?: number | null;
  resetInterval?: ResetInterval | null;
  enforceZdr?: boolean | null;
  zdr?: Partial<ZdrFlags>;
  contentFilterBuiltins?: { slug: BuiltinSlug; action: FilterAction; scanScope?: ScanScope }[] | null;
  contentFilters?: { pattern: string; action: 'redact' | 'block'; label?: string | null }[] | null;
  includeByokInBudgets?: boolean;
}

export interface KeyAssignmentRecord {
  id: string;
  guardrailId: string;
  keyHash: string;
  keyLabel: string;
  keyName: string;
  assignedBy: string | null;
  createdAt: string;
}

export interface MemberAssignmentRecord {
  id: string;
  guardrailId: string;
  userId: string;
  assignedBy: string | null;
  createdAt: string;
}

export interface NewAssignment {
  id: string;
  guardrailId: string;
  /** Key hash or member user id. */
  target: string;
  assignedBy: string | null;
  createdAt: string;
}

export interface GuardrailRepository {
  insert(guardrail: GuardrailRecord): Promise<GuardrailRecord>;
  /** Inserts unless a row with that id exists; returns the stored row either way. */
  insertIfAbsent(guardrail: GuardrailRecord): Promise<GuardrailRecord>;
  findById(id: string): Promise<GuardrailRecord | null>;
  list(workspaceId: string, page: Page): Promise<PageResult<GuardrailRecord>>;
  update(id: string, patch: GuardrailPatch, now: string): Promise<GuardrailRecord | null>;
  /** Deletes the guardrail; its assignments go with it (foreign keys cascade). */
  delete(id: string): Promise<boolean>;

  /** Key assignments of one guardrail, or of all guardrails when `guardrailId` is null. */
  listKeyAssignments(guardrailId: string | null, page: Page): Promise<PageResult<KeyAssignmentRecord>>;
  /** Assigns each key to the guardrail (replacing any other); returns how many changed. */
  assignKeys(rows: NewAssignment[]): Promise<number>;
  unassignKeys(guardrailId: string, keyHashes: string[]): Promise<number>;
  guardrailOfKey(keyHash: string): Promise<GuardrailRecord | null>;

  listMemberAssignments(guardrailId: string | null, page: Page): Promise<PageResult<MemberAssignmentRecord>>;
  assignMembers(rows: NewAssignment[]): Promise<number>;
  unassignMembers(guardrailId: string, userIds: string[]): Promise<number>;
  guardrailOfMember(userId: string): Promise<GuardrailRecord | null>;
}
