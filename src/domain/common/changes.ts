/**
 * The change feed's contract: how in-memory caches learn that a stored record changed, in this
 * process and in every other replica on the same database. Implementations live in
 * `src/store/change-feed.ts` (in-process, SQLite) and `src/store/postgres/change-feed.ts`
 * (PostgreSQL LISTEN/NOTIFY). See docs/architecture.md ("Change feed").
 */

/**
 * What changed. `keys`: an API or management key (id: its hash). `guardrails`: a guardrail or one
 * of its key or member assignments (id: the guardrail id). `presets`: a preset (id: its id).
 * `store`: the database as a whole may have been replaced (a restore from a backup); only ever
 * `null`, so a subscriber checks the store's restore marker to tell a restore from other writes.
 */
export type ChangeTopic = 'keys' | 'guardrails' | 'presets' | 'store';

export const CHANGE_TOPICS: readonly ChangeTopic[] = ['keys', 'guardrails', 'presets', 'store'];

/**
 * Called with the id of the record that changed, or with `null`: anything in the topic may have
 * changed (the feed was down and may have missed notifications, or another process wrote to a
 * SQLite file). On `null` a cache must re-read (or drop) everything it holds for the topic.
 */
export type ChangeHandler = (id: string | null) => void;

export interface ChangePublisher {
  /**
   * Announces that `id` (or, with `null`, anything in `topic`) changed. Call it after the write
   * committed. Subscribers in this process hear it synchronously, before this returns; other
   * replicas within the feed's propagation bound. Resolves once the notification is sent (or
   * queued for resending when the database is unreachable); never rejects.
   */
  publish(topic: ChangeTopic, id: string | null): Promise<void>;
}

export type ChangeFeedState = 'live' | 'down';

export interface ChangeFeed extends ChangePublisher {
  readonly kind: 'local' | 'postgres';
  /** Returns an unsubscribe function. Handlers must not throw (a throw is caught and logged). */
  subscribe(topic: ChangeTopic, handler: ChangeHandler): () => void;
  /**
   * `live`: every change committed by any replica reaches subscribers within the bound. `down`:
   * notifications may be missed, so caches must revalidate against the database.
   */
  state(): ChangeFeedState;
  /**
   * Catches up synchronously with changes of other processes where the store has a cheap
   * signal (SQLite's `PRAGMA data_version`). A no-op where notifications arrive by themselves.
   * Caches call it before trusting what they hold.
   */
  refresh(): void;
  /** Adds an observer (metrics); returns a function that removes it. */
  observe(observer: ChangeFeedObserver): () => void;
  /** Connects (PostgreSQL: the dedicated LISTEN client). Resolves even when the database is down. */
  start(): Promise<void>;
  /** Sends what is still queued (bounded wait), disconnects, stops reconnecting. */
  close(): Promise<void>;
}

/** What the feed reports to metrics; never payloads, tokens or ids. */
export interface ChangeFeedObserver {
  stateChanged?(state: ChangeFeedState): void;
  reconnected?(): void;
  received?(topic: ChangeTopic): void;
  publishFailed?(): void;
}
