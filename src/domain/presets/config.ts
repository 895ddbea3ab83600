import { Value } from '@sinclair/typebox/value';
import { errors } from '../../errors/index.js';
import { validateProviderPreferences } from '../routing/index.js';
import { PRESET_FIELDS, PresetConfigSchema } from './config-schema.js';
import type { PresetConfig } from './types.js';

/** What config validation needs from the catalog. */
export interface PresetModelLookup {
  findModel(slugOrCanonical: string): unknown;
}

const invalid = (field: string, message: string) => errors.invalidRequest(`${field}: ${message}`, { field });

/** TypeBox error path `/tools/0/type` → field name `tools[0].type`. */
function fieldOf(path: string): string {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
    .join('')
    .replace(/^\./, '');
}

/** The text of one message's content: a string, or the text parts of a content array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'object' && part !== null) {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string') parts.push(text);
    }
  }
  return parts.join('\n');
}

/**
 * Splits a chat-completions body into a preset version: the preset fields (PRESET_FIELDS) and
 * the system prompt (the text of its system messages, joined by a blank line; "" when none).
 * Everything else (messages, stream, user …) is dropped silently.
 */
export function versionFromBody(body: Readonly<Record<string, unknown>>): {
  config: PresetConfig;
  systemPrompt: string;
} {
  const config: PresetConfig = {};
  for (const field of PRESET_FIELDS) {
    const value = body[field];
    if (value !== undefined) config[field] = structuredClone(value);
  }
  const prompts: string[] = [];
  const messages = body.messages;
  if (Array.isArray(messages)) {
    for (const m of messages) {
      if (typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'system') {
        const text = textOf((m as { content?: unknown }).content);
        if (text !== '') prompts.push(text);
      }
    }
  }
  return { config, systemPrompt: prompts.join('\n\n') };
}

/**
 * Checks a config before it is stored, so a model call never meets a bad preset: types and
 * ranges of the chat request (temperature 0–2 …), models the catalog knows, valid provider
 * preferences, and no reference to another preset. The first violation is a 400 naming the field.
 */
export function checkConfig(
  config: PresetConfig,
  catalog: PresetModelLookup,
  body: Readonly<Record<string, unknown>> = config,
): void {
  if (body.preset !== undefined) throw invalid('preset', 'a preset cannot reference another preset');
  const first = Value.Errors(PresetConfigSchema, config).First();
  if (first !== undefined) throw invalid(fieldOf(first.path) || 'body', first.message);
  const model = config.model;
  if (typeof model === 'string') {
    if (model.includes('@preset/')) throw invalid('model', 'a preset cannot reference another preset');
    if (catalog.findModel(model) === undefined) throw invalid('model', `unknown model ${model}`);
  }
  const models = config.models;
  if (Array.isArray(models)) {
    models.forEach((m, i) => {
      if (typeof m === 'string' && catalog.findModel(m) === undefined)
        throw invalid(`models[${i}]`, `unknown model ${m}`);
    });
  }
  if (config.provider !== undefined && config.provider !== null) {
    const prefs = validateProviderPreferences(config.provider);
    if (!prefs.ok) {
      const e = prefs.errors[0];
      throw invalid(e?.field ?? 'provider', e?.message ?? 'invalid provider preferences');
    }
  }
}
