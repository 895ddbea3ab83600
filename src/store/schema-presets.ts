/**
 * Table types of presets and their versions (merged into `Database`). Same conventions as
 * schema.ts: timestamps ISO-8601 text, JSON as text.
 */
export interface PresetsTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  description: string | null;
  status: 'active' | 'archived';
  status_updated_at: string | null;
  creator_user_id: string;
  /** No foreign key (it would make a cycle with preset_versions); the service keeps it valid. */
  designated_version_id: string | null;
  /** Highest version number handed out; incremented in place to number the next version. */
  latest_version: number;
  created_at: string;
  updated_at: string;
}

export interface PresetVersionsTable {
  id: string;
  preset_id: string;
  version: number;
  /** JSON object of the stored request fields. */
  config: string;
  system_prompt: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

export interface PresetTables {
  presets: PresetsTable;
  preset_versions: PresetVersionsTable;
}
