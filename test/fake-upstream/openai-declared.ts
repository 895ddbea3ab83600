import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * What OpenAI's chat-completions API accepts, read from the `openai` package's own type
 * declarations (not from the gateway's list, which the fake exists to check): the request's
 * top-level fields, each message role's fields and content-part types, and each part's fields.
 */
export interface OpenAiChatDeclaration {
  fields: ReadonlySet<string>;
  /** Per role: message fields and the `content` part types. */
  roles: ReadonlyMap<string, { fields: ReadonlySet<string>; parts: ReadonlySet<string> }>;
  /** Per part type: its fields. */
  parts: ReadonlyMap<string, ReadonlySet<string>>;
}

function declarationsText(): string {
  const require = createRequire(import.meta.url);
  const compiled = require.resolve('openai/resources/chat/completions/completions');
  return readFileSync(join(dirname(compiled), 'completions.d.ts'), 'utf8');
}

/** The body of `interface <name> {…}` (the first one after `after`, if given). */
function interfaceBody(text: string, name: string, after = 0): string {
  const start = text.indexOf(`interface ${name} {`, after);
  if (start < 0) throw new Error(`openai declarations: no interface ${name}`);
  let depth = 0;
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(text.indexOf('{', start) + 1, i);
  }
  throw new Error(`openai declarations: unterminated interface ${name}`);
}

/** The member names at the top level of an interface body (nested object types skipped). */
function members(body: string): Set<string> {
  const out = new Set<string>();
  let depth = 0;
  for (const line of body.split('\n')) {
    const match = depth === 0 ? /^\s*([a-z_]+)\??:/.exec(line) : null;
    if (match?.[1] !== undefined) out.add(match[1]);
    for (const ch of line) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
  }
  return out;
}

/** The literal of a `type: 'x'` member. */
function typeLiteral(body: string): string {
  const match = /\btype: '([a-z_]+)'/.exec(body);
  if (match?.[1] === undefined) throw new Error('openai declarations: a part without a type literal');
  return match[1];
}

const PART_INTERFACES = [
  'ChatCompletionContentPartText',
  'ChatCompletionContentPartImage',
  'ChatCompletionContentPartInputAudio',
  'ChatCompletionContentPartRefusal',
];

const ROLE_INTERFACES: Record<string, string> = {
  system: 'ChatCompletionSystemMessageParam',
  developer: 'ChatCompletionDeveloperMessageParam',
  user: 'ChatCompletionUserMessageParam',
  assistant: 'ChatCompletionAssistantMessageParam',
  tool: 'ChatCompletionToolMessageParam',
};

let cached: OpenAiChatDeclaration | null = null;

export function openAiChatDeclaration(): OpenAiChatDeclaration {
  if (cached !== null) return cached;
  const text = declarationsText();
  const parts = new Map<string, ReadonlySet<string>>();
  for (const name of PART_INTERFACES) {
    const body = interfaceBody(text, name);
    parts.set(typeLiteral(body), members(body));
  }
  // The file part is declared inside `namespace ChatCompletionContentPart` as `interface File`.
  const fileBody = interfaceBody(text, 'File', text.indexOf('namespace ChatCompletionContentPart {'));
  parts.set(typeLiteral(fileBody), members(fileBody));
  const roles = new Map<string, { fields: ReadonlySet<string>; parts: ReadonlySet<string> }>();
  for (const [role, name] of Object.entries(ROLE_INTERFACES)) {
    const body = interfaceBody(text, name);
    const content = /\n\s*content\??: ([^;]+);/.exec(body)?.[1] ?? '';
    const allowed = new Set<string>();
    if (content.includes('ChatCompletionContentPart ') || content.includes('ChatCompletionContentPart>'))
      for (const t of ['text', 'image_url', 'input_audio', 'file']) allowed.add(t);
    if (content.includes('ChatCompletionContentPartText')) allowed.add('text');
    if (content.includes('ChatCompletionContentPartRefusal')) allowed.add('refusal');
    roles.set(role, { fields: members(body), parts: allowed });
  }
  cached = { fields: members(interfaceBody(text, 'ChatCompletionCreateParamsBase')), roles, parts };
  return cached;
}

let completionFields: ReadonlySet<string> | null = null;

/** The top-level fields of OpenAI's legacy completions request (CompletionCreateParamsBase). */
export function openAiCompletionFields(): ReadonlySet<string> {
  if (completionFields !== null) return completionFields;
  const require = createRequire(import.meta.url);
  const compiled = require.resolve('openai/resources/completions');
  const text = readFileSync(join(dirname(compiled), 'completions.d.ts'), 'utf8');
  completionFields = members(interfaceBody(text, 'CompletionCreateParamsBase'));
  return completionFields;
}

/** What OpenAI would refuse in this legacy completions body, as its 400 message; null when it accepts it. */
export function completionRefusedByOpenAi(body: Record<string, unknown>): string | null {
  const fields = openAiCompletionFields();
  for (const key of Object.keys(body)) if (!fields.has(key)) return `Unrecognized request argument supplied: ${key}`;
  return null;
}

/** What OpenAI would refuse in this chat body, as its 400 message; null when it accepts it. */
export function refusedByOpenAi(body: Record<string, unknown>): string | null {
  const d = openAiChatDeclaration();
  for (const key of Object.keys(body)) if (!d.fields.has(key)) return `Unrecognized request argument supplied: ${key}`;
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (const [i, raw] of messages.entries()) {
    if (typeof raw !== 'object' || raw === null) return `Invalid type for 'messages[${i}]'`;
    const message = raw as Record<string, unknown>;
    const role = d.roles.get(String(message.role));
    if (role === undefined) return `Invalid value: '${String(message.role)}' at messages[${i}].role`;
    for (const key of Object.keys(message))
      if (!role.fields.has(key))
        return `Additional properties are not allowed ('${key}' was unexpected) - 'messages.${i}'`;
    if (!Array.isArray(message.content)) continue;
    for (const [j, part] of (message.content as unknown[]).entries()) {
      const p = (typeof part === 'object' && part !== null ? part : {}) as Record<string, unknown>;
      const fields = d.parts.get(String(p.type));
      if (fields === undefined || !role.parts.has(String(p.type)))
        return `Invalid value: '${String(p.type)}'. Supported values are: ${[...role.parts].join(', ')} - 'messages[${i}].content[${j}].type'`;
      for (const key of Object.keys(p))
        if (!fields.has(key))
          return `Additional properties are not allowed ('${key}' was unexpected) - 'messages[${i}].content[${j}]'`;
    }
  }
  return null;
}

let responsesFields: ReadonlySet<string> | null = null;

/** The top-level fields of OpenAI's Responses request (ResponseCreateParamsBase). */
export function openAiResponsesFields(): ReadonlySet<string> {
  if (responsesFields !== null) return responsesFields;
  const require = createRequire(import.meta.url);
  const compiled = require.resolve('openai/resources/responses/responses');
  const text = readFileSync(join(dirname(compiled), 'responses.d.ts'), 'utf8');
  responsesFields = members(interfaceBody(text, 'ResponseCreateParamsBase'));
  return responsesFields;
}

/** What OpenAI would refuse in this Responses body, as its 400 message; null when it accepts it. */
export function responsesRefusedByOpenAi(body: Record<string, unknown>): string | null {
  const fields = openAiResponsesFields();
  for (const key of Object.keys(body)) if (!fields.has(key)) return `Unknown parameter: '${key}'.`;
  // OpenAI keeps nothing the gateway did not ask it to keep: a stored response it never made is unknown to it.
  if (typeof body.previous_response_id === 'string')
    return `Previous response with id '${body.previous_response_id}' not found.`;
  return null;
}
