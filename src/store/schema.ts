/**
 * Table types of the one query layer. Both dialects use the same column types so that every
 * query is written once: booleans are integers (0/1), timestamps ISO-8601 text, money doubles,
 * JSON as text. Dialect differences live only in `sqlite/` and `postgres/`.
 */
import type { Generated } from 'kysely';
import type { AccountingTables } from './schema-accounting.js';
import type { AuditTables } from './schema-audit.js';
import type { GuardrailTables } from './schema-guardrails.js';
import type { PresetTables } from './schema-presets.js';
import type { ConsoleTables } from './schema-console.js';
import type { ResponseTables } from './schema-responses.js';

export interface MembersTable {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: 'org:owner' | 'org:admin' | 'org:member';
  created_at: string;
  /** Set when the member was disabled: no sign-in, and their console sessions end. */
  disabled_at: string | null;
}

export interface WorkspacesTable {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  is_default: number;
  default_text_model: string | null;
  default_image_model: string | null;
  default_provider_sort: string | null;
  disabled_server_tools: string | null;
  io_logging_api_key_ids: string | null;
  io_logging_sampling_rate: number;
  is_data_discount_logging_enabled: number;
  is_observability_broadcast_enabled: number;
  is_observability_io_logging_enabled: number;
  include_byok_in_budgets: number;
  created_by: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface WorkspaceMembersTable {
  id: string;
  workspace_id: string;
  user_id: string;
  role: 'admin' | 'member' | 'viewer';
  created_at: string;
}

export interface ApiKeysTable {
  hash: string;
  token_digest: string;
  kind: 'api' | 'management';
  name: string;
  label: string;
  workspace_id: string;
  creator_user_id: string;
  disabled: number;
  limit_usd: number | null;
  limit_reset: 'daily' | 'weekly' | 'monthly' | null;
  include_byok_in_limit: number;
  expires_at: string | null;
  external_user: string | null;
  external_api_key_digest: string | null;
  created_at: string;
  updated_at: string | null;
  rotated_at: string | null;
}

export interface StoreMetaTable {
  key: string;
  value: string;
  id?: Generated<number>;
}

export interface Database
  extends AccountingTables, GuardrailTables, PresetTables, ConsoleTables, AuditTables, ResponseTables {
  members: MembersTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  api_keys: ApiKeysTable;
  store_meta: StoreMetaTable;
}
