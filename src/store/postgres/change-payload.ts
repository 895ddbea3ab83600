import { CHANGE_TOPICS, type ChangeTopic } from '../../domain/common/changes.js';

/** The one NOTIFY channel of Switchyard; payload `{"topic":…,"id":…}`, never a token. */
export const CHANGE_CHANNEL = 'switchyard_changes';

/** The NOTIFY payload: the topic and the id, nothing else (never a token). */
export function payloadOf(change: { topic: ChangeTopic; id: string | null }): string {
  return JSON.stringify({ topic: change.topic, id: change.id });
}

/** A probe a replica sends to itself: a random nonce, nothing else. */
export function pingPayload(nonce: string): string {
  return JSON.stringify({ ping: nonce });
}

/** The nonce of a probe (anyone's), or null when the payload is not one. */
export function parsePing(payload: string | undefined): string | null {
  if (payload === undefined || !payload.startsWith('{"ping":')) return null;
  try {
    const value: unknown = JSON.parse(payload);
    const nonce: unknown =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>).ping : undefined;
    return typeof nonce === 'string' ? nonce : null;
  } catch {
    return null;
  }
}

export function parsePayload(payload: string | undefined): { topic: ChangeTopic; id: string | null } | null {
  if (payload === undefined) return null;
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return null;
    const topic: unknown = (value as Record<string, unknown>).topic;
    const id: unknown = (value as Record<string, unknown>).id;
    const known = CHANGE_TOPICS.find((t) => t === topic);
    if (known === undefined || (id !== null && typeof id !== 'string')) return null;
    return { topic: known, id };
  } catch {
    return null;
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`change feed: ${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
