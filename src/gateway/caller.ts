/**
 * Who made a call, as the client's request says: recorded on its generation (filterable in
 * GET /generations) and, for the `anthropic-*` allow-list, forwarded on a native pass-through.
 */
export interface CallerInfo {
  /** The `User-Agent` header (e.g. `claude-cli/2.1.0 (external, cli)`, `codex_exec/0.1`). */
  userAgent: string | null;
  /** The client's session: `x-claude-code-session-id`, `x-session-id`, a body `session_id` or `prompt_cache_key`. */
  sessionId: string | null;
  /** Where the call comes from: the `Origin` header, else `HTTP-Referer`. */
  origin: string | null;
  /** Client headers a native pass-through forwards upstream (the allow-list of src/http/caller.ts). */
  forwardHeaders: Readonly<Record<string, string>>;
}

export const UNKNOWN_CALLER: CallerInfo = Object.freeze({
  userAgent: null,
  sessionId: null,
  origin: null,
  forwardHeaders: Object.freeze({}),
});
