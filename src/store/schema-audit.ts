/** Table type of the audit log (merged into `Database`); timestamps ISO-8601 text, JSON as text. */
export interface AuditLogTable {
  id: string;
  at: string;
  actor_kind: 'key' | 'cli' | 'console' | 'system';
  actor_member_id: string | null;
  actor_email: string | null;
  actor_key_hash: string | null;
  action: string;
  target_type: string;
  target_id: string;
  /** JSON object of the changed fields, or null. */
  changes: string | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
