import {
  BENCH_ANTHROPIC_MODEL,
  BENCH_AZURE_MODEL,
  BENCH_RESPONSES_MODEL,
  messagesRequestBody,
  requestBody,
  responsesRequestBody,
} from './payloads.js';
import { bedrockRequestBody } from './bedrock-payloads.js';
import { geminiRequestBody } from './payloads-gemini.js';

/**
 * The API surfaces a cell can call. Every one reaches the same fake upstream:
 * - `chat`: `POST /chat/completions` to the OpenAI-format upstream;
 * - `messages`: `POST /messages` (Anthropic's format) routed to the OpenAI-format upstream, so
 *   the gateway translates the request to a chat and the answer back;
 * - `native`: `POST /messages` for a model whose provider speaks Anthropic's format (the same
 *   upstream's `/messages`), passed through natively;
 * - `responses`: `POST /responses` (OpenAI's Responses API), decoded to a chat;
 * - `azure`: `POST /chat/completions` for a model whose provider is `kind: azure` (the same
 *   upstream at Azure's `/openai/deployments/{d}/chat/completions?api-version=` URL, `api-key`).
 * - `bedrock`: `POST /chat/completions` for a model whose provider is `kind: bedrock` (the same
 *   upstream answering Converse / ConverseStream), every call signed with SigV4.
 * - `gemini`: `POST /chat/completions` for a model whose provider is `kind: gemini` (the same
 *   upstream's generateContent), so the gateway speaks Gemini's wire upstream.
 * - `responses-native`: `POST /responses` for a model whose provider serves the Responses API
 *   (the same upstream's `/responses`), passed through natively.
 */
export type Surface =
  'chat' | 'messages' | 'native' | 'responses' | 'responses-native' | 'azure' | 'bedrock' | 'gemini';

export interface Cell {
  surface: Surface;
  stream: boolean;
  connections: number;
}

const CELL = /^(?:(messages|native|responses|responses-native|azure|bedrock|gemini)-)?(json|stream)(\d+)$/;

/** `json10`, `stream64` (chat), `messages-json10`, `native-stream10`, `responses-json10`, …; others are ignored. */
export function parseCells(list: string): Cell[] {
  const cells: Cell[] = [];
  for (const raw of list.split(',')) {
    const m = CELL.exec(raw.trim());
    if (m === null) continue;
    const surface = (m[1] ?? 'chat') as Surface;
    cells.push({ surface, stream: m[2] === 'stream', connections: Number(m[3]) });
  }
  return cells;
}

export const SURFACES: readonly Surface[] = [
  'chat',
  'messages',
  'native',
  'responses',
  'responses-native',
  'azure',
  'bedrock',
  'gemini',
];

/** `chat,messages,…`: the known surface names of a list, each once, in the list's order. */
export function parseSurfaces(list: string): Surface[] {
  const names = list.split(',').map((s) => s.trim());
  return SURFACES.filter((s) => names.includes(s)).sort((a, b) => names.indexOf(a) - names.indexOf(b));
}

export function surfaceLabel(surface: Surface): string {
  switch (surface) {
    case 'chat':
      return 'chat';
    case 'messages':
      return 'messages';
    case 'native':
      return 'messages (native)';
    case 'responses':
      return 'responses';
    case 'azure':
      return 'chat (azure)';
    case 'bedrock':
      return 'chat (Bedrock Converse)';
    case 'gemini':
      return 'chat (Gemini upstream)';
    case 'responses-native':
      return 'responses (native)';
  }
}

/** The request body a client of that surface sends (the same conversation on every surface). */
export function surfaceBody(surface: Surface, stream: boolean): string {
  switch (surface) {
    case 'chat':
      return requestBody(stream);
    case 'messages':
      return messagesRequestBody(stream);
    case 'native':
      return messagesRequestBody(stream, BENCH_ANTHROPIC_MODEL);
    case 'responses':
      return responsesRequestBody(stream);
    case 'azure':
      return requestBody(stream, { model: BENCH_AZURE_MODEL });
    case 'bedrock':
      return bedrockRequestBody(stream);
    case 'gemini':
      return geminiRequestBody(stream);
    case 'responses-native':
      return responsesRequestBody(stream, BENCH_RESPONSES_MODEL);
  }
}

/** Text a complete streamed answer of that surface ends with (checked before anything is timed). */
export function streamEndMarker(surface: Surface): string {
  switch (surface) {
    case 'chat':
    case 'azure':
    case 'bedrock':
    case 'gemini':
      return '[DONE]';
    case 'messages':
    case 'native':
      return 'message_stop';
    case 'responses':
    case 'responses-native':
      return 'response.completed';
  }
}
