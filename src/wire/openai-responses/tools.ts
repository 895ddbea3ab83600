import { createHash } from 'node:crypto';
import type { FunctionTool } from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import type { ResponsesFunctionTool } from './wire.js';

type Json = Record<string, unknown>;

/**
 * The tools of a Responses body as clients send them, for an upstream that takes chat function
 * tools: `function` tools as they are; `custom` (freeform) tools as a function taking one string
 * `input`; the tools of a `namespace` (and of `additional_tools` input items) flattened under a
 * stable name `<namespace>__<name>`; hosted tools (`web_search`, `file_search`, …) dropped, their
 * types listed for the response's metadata note. The way back (a call's flat name → its tool)
 * is `ToolNames`.
 */

/** What a flat chat tool name stands for. */
export interface ToolOrigin {
  name: string;
  namespace?: string;
  /** A freeform tool: its call carries `input` (a string), not JSON arguments. */
  custom: boolean;
}

export type ToolNames = ReadonlyMap<string, ToolOrigin>;

export interface DecodedTools {
  chat: FunctionTool[];
  /** The plain function tools, as the response object repeats them. */
  echo: ResponsesFunctionTool[];
  names: ToolNames;
  /** Hosted tool types this upstream does not serve (dropped). */
  dropped: string[];
}

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(field: string, message: string): never {
  throw errors.invalidRequest(`${field}: ${message}`, { field });
}

/** Chat function names are at most 64 characters of `[A-Za-z0-9_-]`. */
const MAX_NAME = 64;

/** The stable chat name of a tool (`<namespace>__<name>`, cut with a hash suffix past 64 characters). */
export function flatToolName(name: string, namespace?: string): string {
  const flat = (namespace === undefined || namespace === '' ? name : `${namespace}__${name}`).replace(
    /[^A-Za-z0-9_-]/g,
    '_',
  );
  if (flat.length <= MAX_NAME) return flat;
  const hash = createHash('sha256').update(flat).digest('hex').slice(0, 8);
  return `${flat.slice(0, MAX_NAME - 9)}_${hash}`;
}

const CUSTOM_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw input of the tool, in the format it describes.' } },
  required: ['input'],
  additionalProperties: false,
};

function customDescription(tool: Json): string {
  const base = typeof tool.description === 'string' ? tool.description : '';
  const format = isRecord(tool.format) ? tool.format : null;
  if (format === null || format.type === 'text') return base;
  // A grammar-constrained tool: the grammar goes to the model as part of the description.
  const definition =
    typeof format.definition === 'string' ? `\n\nInput grammar (${String(format.syntax)}):\n${format.definition}` : '';
  return base + definition;
}

interface Sink {
  chat: FunctionTool[];
  names: Map<string, ToolOrigin>;
  dropped: string[];
}

function addTool(
  tool: unknown,
  field: string,
  namespace: string | undefined,
  sink: Sink,
): ResponsesFunctionTool | null {
  if (!isRecord(tool)) bad(field, 'must be an object');
  if (tool.type === 'namespace' && namespace === undefined) {
    const ns = typeof tool.name === 'string' ? tool.name : bad(`${field}.name`, 'must be a string');
    if (!Array.isArray(tool.tools)) bad(`${field}.tools`, 'must be an array');
    tool.tools.forEach((inner: unknown, i) => addTool(inner, `${field}.tools[${i}]`, ns, sink));
    return null;
  }
  if (tool.type !== 'function' && tool.type !== 'custom') {
    sink.dropped.push(String(tool.type));
    return null;
  }
  const name = typeof tool.name === 'string' && tool.name !== '' ? tool.name : bad(`${field}.name`, 'must be a string');
  const flat = flatToolName(name, namespace);
  const origin: ToolOrigin = { name, custom: tool.type === 'custom' };
  if (namespace !== undefined) origin.namespace = namespace;
  sink.names.set(flat, origin);
  if (tool.type === 'custom') {
    const description = customDescription(tool);
    const fn: FunctionTool['function'] = { name: flat, parameters: CUSTOM_PARAMETERS };
    if (description !== '') fn.description = description;
    sink.chat.push({ type: 'function', function: fn });
    return null;
  }
  const parameters = tool.parameters;
  if (parameters !== undefined && parameters !== null && !isRecord(parameters))
    bad(`${field}.parameters`, 'must be a JSON Schema object');
  const fn: FunctionTool['function'] = { name: flat };
  if (typeof tool.description === 'string') fn.description = tool.description;
  if (isRecord(parameters)) fn.parameters = parameters;
  if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
  sink.chat.push({ type: 'function', function: fn });
  if (namespace !== undefined) return null;
  const echo: ResponsesFunctionTool = {
    type: 'function',
    name,
    parameters: isRecord(parameters) ? parameters : null,
    strict: typeof tool.strict === 'boolean' ? tool.strict : null,
  };
  if (typeof tool.description === 'string') echo.description = tool.description;
  return echo;
}

/** `tools`, then the tools of each `additional_tools` input item, in order. */
export function decodeResponsesTools(tools: unknown, input: unknown): DecodedTools {
  const sink: Sink = { chat: [], names: new Map(), dropped: [] };
  const echo: ResponsesFunctionTool[] = [];
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) bad('tools', 'must be an array');
    tools.forEach((tool: unknown, i) => {
      const out = addTool(tool, `tools[${i}]`, undefined, sink);
      if (out !== null) echo.push(out);
    });
  }
  if (Array.isArray(input))
    input.forEach((item: unknown, i) => {
      if (!isRecord(item) || item.type !== 'additional_tools') return;
      if (!Array.isArray(item.tools)) bad(`input[${i}].tools`, 'must be an array');
      item.tools.forEach((tool: unknown, j) => addTool(tool, `input[${i}].tools[${j}]`, undefined, sink));
    });
  return { chat: sink.chat, echo, names: sink.names, dropped: [...new Set(sink.dropped)] };
}

/** The metadata note of a response whose hosted tools were dropped. */
export const DROPPED_TOOLS_NOTE = 'switchyard_dropped_tools';
