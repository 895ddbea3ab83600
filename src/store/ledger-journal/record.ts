import type { GenerationRecord } from '../../domain/accounting/types.js';
import { isRecord } from '../../canonical/json.js';

/**
 * One journal line: the generation's fields by position in a JSON array that starts with the
 * format number, then the settle time. Positions instead of keys halve the line and the time
 * `JSON.stringify` takes on the call's path; the line stays plain JSON, readable by hand.
 *
 * Format 1 (journals written before this one, still replayed): `{"t": <ms>, "g": <the record>}`.
 */
const FORMAT = 2;

/** The fields after the format number and the settle time, in this order (another list is another FORMAT). */
const FIELDS = [
  'id',
  'requestId',
  'keyHash',
  'workspaceId',
  'creatorUserId',
  'model',
  'providerId',
  'upstreamModel',
  'upstreamId',
  'apiType',
  'streamed',
  'cancelled',
  'finishReason',
  'nativeFinishReason',
  'promptTokens',
  'completionTokens',
  'reasoningTokens',
  'cachedTokens',
  'usageEstimated',
  'promptCostUsd',
  'completionCostUsd',
  'costUsd',
  'latencyMs',
  'generationTimeMs',
  'presetId',
  'presetVersion',
  'flags',
  'attempts',
  'createdAt',
  'userAgent',
  'sessionId',
  'origin',
  'refusal',
] as const satisfies readonly (keyof GenerationRecord)[];

const HEAD = 2;

/** The journal line of a settled generation, newline included (an absent optional field is null). */
export function encodeRecord(g: GenerationRecord, settledAtMs: number): string {
  const row: unknown[] = [FORMAT, settledAtMs];
  for (const field of FIELDS) row.push(g[field] ?? null);
  return `${JSON.stringify(row)}\n`;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Whether a line's generation has the fields the ledger needs. This rejects a line that is torn
 * (a power loss mid-write) or not ours; the store's row conversion tolerates the rest.
 */
function isGeneration(g: unknown): g is GenerationRecord {
  return (
    isRecord(g) &&
    isString(g.id) &&
    isString(g.keyHash) &&
    isString(g.creatorUserId) &&
    isNumber(g.costUsd) &&
    g.costUsd >= 0 &&
    isString(g.createdAt) &&
    Array.isArray(g.attempts) &&
    Array.isArray(g.flags)
  );
}

function fromPositions(row: readonly unknown[]): GenerationRecord | null {
  if (row.length !== HEAD + FIELDS.length) return null;
  const g: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS.length; i++) g[FIELDS[i] as string] = row[HEAD + i];
  if (!isGeneration(g)) return null;
  const refusal = g.refusal;
  if (refusal !== null && !isRecord(refusal)) return null;
  if (![g.userAgent, g.sessionId, g.origin].every(isStringOrNull)) return null;
  // An accepted call is settled without a refusal: it reads back as it was settled.
  if (refusal === null) delete g.refusal;
  return g;
}

/** A journal line of either format; null for a torn or foreign line. */
export function decodeRecord(line: string): { generation: GenerationRecord; settledAt: Date } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (Array.isArray(parsed)) {
    const row = parsed as unknown[];
    if (row[0] !== FORMAT || !isNumber(row[1])) return null;
    const generation = fromPositions(row);
    return generation === null ? null : { generation, settledAt: new Date(row[1]) };
  }
  if (!isRecord(parsed) || !isNumber(parsed.t) || !isGeneration(parsed.g)) return null;
  return { generation: parsed.g, settledAt: new Date(parsed.t) };
}
