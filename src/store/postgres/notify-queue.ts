import { CHANGE_TOPICS, type ChangeTopic } from '../../domain/common/changes.js';

/** One notification waiting to be sent, and the publishers waiting for it. */
export interface Outgoing {
  key: string;
  topic: ChangeTopic;
  id: string | null;
  waiters: Array<() => void>;
}

const slot = (topic: ChangeTopic, id: string | null): string => `${topic}\n${id ?? '*'}`;

/**
 * Notifications of the change feed not yet sent, in order, one per (topic, id). Beyond `max`
 * they collapse into one "anything changed" per topic: the same message with bounded memory.
 */
export class NotifyQueue {
  private readonly items = new Map<string, Outgoing>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.items.size;
  }

  add(topic: ChangeTopic, id: string | null, waiter: () => void): void {
    const existing = this.items.get(slot(topic, id)) ?? this.items.get(slot(topic, null));
    if (existing !== undefined) {
      existing.waiters.push(waiter);
      return;
    }
    if (this.items.size >= this.max) {
      const waiters = [...this.items.values()].flatMap((q) => q.waiters);
      this.items.clear();
      for (const t of CHANGE_TOPICS)
        this.items.set(slot(t, null), { key: slot(t, null), topic: t, id: null, waiters: [] });
      this.items.get(slot(topic, null))?.waiters.push(waiter, ...waiters);
      return;
    }
    const key = slot(topic, id);
    this.items.set(key, { key, topic, id, waiters: [waiter] });
  }

  /** Takes the oldest out (in flight: a change published meanwhile gets a notification of its own). */
  shift(): Outgoing | undefined {
    const first = this.items.values().next().value;
    if (first !== undefined) this.items.delete(first.key);
    return first;
  }

  /** Takes everything out. */
  takeAll(): Outgoing[] {
    const all = [...this.items.values()];
    this.items.clear();
    return all;
  }

  /** A send failed: the item goes back (unless queued again meanwhile); its publishers stop waiting. */
  putBack(item: Outgoing): void {
    if (!this.items.has(item.key)) this.items.set(item.key, { ...item, waiters: [] });
    releaseWaiters(item);
  }

  hasWaiters(): boolean {
    return [...this.items.values()].some((q) => q.waiters.length > 0);
  }

  /** Everyone waiting stops waiting (what they published stays queued). */
  releaseAll(): void {
    for (const item of this.items.values()) releaseWaiters(item);
  }

  clear(): void {
    this.releaseAll();
    this.items.clear();
  }
}

/** The item's publishers stop waiting. */
export function releaseWaiters(item: Outgoing): void {
  for (const done of item.waiters.splice(0)) done();
}
