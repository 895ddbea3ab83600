/**
 * What a fake cloud answers, the same script for every wire format: each fake renders it in its
 * own dialect (Converse, Anthropic Messages, Gemini, Azure chat completions). Queue one with
 * `fake.queue({...})`; an empty queue answers with `DEFAULT_SCRIPT`.
 */
export interface ToolCallScript {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The cloud-neutral finish; each wire renders its own value (`end_turn`, `STOP`, `stop`, …). */
export type StopScript = 'end' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'content_filter' | 'safety';

/** `prompt_filter` is Azure's refusal of the prompt (400 with `code: content_filter`). */
export type FailureScript = 'throttle' | 'validation' | 'auth' | 'server' | 'prompt_filter';

export interface UsageScript {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

export interface CloudScript {
  /** Text pieces of the answer; a stream sends one event per piece. */
  pieces: string[];
  thinking: { text: string; signature: string } | null;
  toolCalls: ToolCallScript[];
  /** null: `tool_use` when there are tool calls, else `end`. */
  stop: StopScript | null;
  usage: UsageScript;
  /** An error answer instead of the script (before any byte, or mid-stream with `failMidStream`). */
  fail: FailureScript | null;
  failMidStream: boolean;
  firstByteDelayMs: number;
  eventDelayMs: number;
  /** A stream (or JSON body) cut after this many events: the socket is destroyed mid-answer. */
  cutAfterEvents: number | null;
}

export const DEFAULT_PIECES = ['Hello', ' from', ' the', ' fake', ' cloud.'];

export const DEFAULT_SCRIPT: CloudScript = {
  pieces: DEFAULT_PIECES,
  thinking: null,
  toolCalls: [],
  stop: null,
  usage: { input: 12, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
  fail: null,
  failMidStream: false,
  firstByteDelayMs: 0,
  eventDelayMs: 0,
  cutAfterEvents: null,
};

/** A full script from a partial one; `text` is a shorthand for `pieces` split at spaces. */
export function makeScript(partial: Partial<CloudScript> & { text?: string } = {}): CloudScript {
  const { text, ...rest } = partial;
  const pieces = text === undefined ? (rest.pieces ?? DEFAULT_PIECES) : splitPieces(text);
  return { ...DEFAULT_SCRIPT, ...rest, pieces, usage: { ...DEFAULT_SCRIPT.usage, ...rest.usage } };
}

function splitPieces(text: string): string[] {
  const pieces = text.match(/\s*\S+/g);
  return pieces === null ? [text] : pieces;
}

export function scriptText(s: CloudScript): string {
  return s.pieces.join('');
}

export function scriptStop(s: CloudScript): StopScript {
  return s.stop ?? (s.toolCalls.length > 0 ? 'tool_use' : 'end');
}

/** A deterministic embedding: `dimensions` numbers in [-1, 1] derived from the text. */
export function fakeVector(text: string, dimensions: number): number[] {
  let seed = 2166136261;
  for (const ch of text) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619) >>> 0;
  const out: number[] = [];
  for (let i = 0; i < dimensions; i++) {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) >>> 0;
    out.push(Math.round(((seed % 2000) / 1000 - 1) * 1e6) / 1e6);
  }
  return out;
}

/** About four characters per token, at least one: what the fakes count for embeddings and countTokens. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
