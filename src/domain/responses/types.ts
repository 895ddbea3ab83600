/** A response kept for `previous_response_id`, `item_reference` and `GET /responses/{id}`. */
export interface StoredResponse {
  id: string;
  workspaceId: string;
  keyHash: string;
  /** The whole input it was made from: earlier responses' items first, references resolved. */
  inputItems: unknown[];
  outputItems: unknown[];
  /** The response object as the client received it. */
  response: Record<string, unknown>;
  createdAt: string;
  expiresAt: string;
}

/** Whose responses a caller may read: the workspace and key that made them. */
export interface ResponseScope {
  workspaceId: string;
  keyHash: string;
}

/** A response as it is written: its three parts serialised once, `bytes` their size (the bound's measure). */
export interface SerializedResponse {
  id: string;
  workspaceId: string;
  keyHash: string;
  inputItems: string;
  outputItems: string;
  response: string;
  bytes: number;
  createdAt: string;
  expiresAt: string;
}

export interface StoredResponseRepository {
  /** Writes the responses in one statement (an id already stored is left as it is). */
  saveAll(responses: readonly SerializedResponse[]): Promise<void>;
  /** The response if it is in the scope and not expired at `now` (ISO-8601); else null. */
  find(id: string, scope: ResponseScope, now: string): Promise<StoredResponse | null>;
  /** True when a response of the scope was deleted. */
  remove(id: string, scope: ResponseScope): Promise<boolean>;
  /** Deletes up to `limit` responses expired before `now`; returns how many. */
  pruneExpired(now: string, limit: number): Promise<number>;
}
