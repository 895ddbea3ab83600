/** Stored Responses (migration 014): one row per response made with `store: true`. */
export interface StoredResponsesTable {
  id: string;
  workspace_id: string;
  key_hash: string;
  /** JSON array: the whole input the response was made from (earlier responses' items included). */
  input_items: string;
  /** JSON array: the response's output items. */
  output_items: string;
  /** JSON: the response object, as GET /responses/{id} returns it. */
  response: string;
  bytes: number;
  created_at: string;
  expires_at: string;
}

export interface ResponseTables {
  stored_responses: StoredResponsesTable;
}
