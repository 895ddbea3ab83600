/** Per workspace, most to least: `admin` (keys, guardrails, presets, members), `member` (own keys), `viewer` (read-only). */
export type WorkspaceRole = 'admin' | 'member' | 'viewer';

export const WORKSPACE_ROLES: readonly WorkspaceRole[] = ['admin', 'member', 'viewer'];

export interface WorkspaceRecord {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  isDefault: boolean;
  defaultTextModel: string | null;
  defaultImageModel: string | null;
  defaultProviderSort: string | null;
  disabledServerTools: string[] | null;
  ioLoggingApiKeyIds: number[] | null;
  ioLoggingSamplingRate: number;
  isDataDiscountLoggingEnabled: boolean;
  isObservabilityBroadcastEnabled: boolean;
  isObservabilityIoLoggingEnabled: boolean;
  includeByokInBudgets: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string | null;
}

export type WorkspaceSettings = Omit<WorkspaceRecord, 'id' | 'isDefault' | 'createdBy' | 'createdAt' | 'updatedAt'>;
export type WorkspacePatch = Partial<WorkspaceSettings>;

export interface WorkspaceMemberRecord {
  id: string;
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
  createdAt: string;
}

export interface WorkspaceRepository {
  insert(workspace: WorkspaceRecord): Promise<WorkspaceRecord>;
  findByIdOrSlug(ref: string): Promise<WorkspaceRecord | null>;
  findDefault(): Promise<WorkspaceRecord | null>;
  list(page: { offset: number; limit: number }): Promise<{ rows: WorkspaceRecord[]; total: number }>;
  update(id: string, patch: WorkspacePatch, now: string): Promise<WorkspaceRecord | null>;
  delete(id: string): Promise<boolean>;
  listMembers(
    workspaceId: string,
    page: { offset: number; limit: number },
  ): Promise<{ rows: WorkspaceMemberRecord[]; total: number }>;
  /** Creates memberships (or updates their role); returns the resulting rows. */
  upsertMembers(rows: WorkspaceMemberRecord[]): Promise<WorkspaceMemberRecord[]>;
  removeMembers(workspaceId: string, userIds: string[]): Promise<number>;
  isMember(workspaceId: string, userId: string): Promise<boolean>;
  /** Every explicit membership of one member (the default workspace's only when a role was set there). */
  rolesOf(userId: string): Promise<{ workspaceId: string; role: WorkspaceRole }[]>;
}
