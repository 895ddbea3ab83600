/**
 * The catalog fields of the Google kinds. `gemini` needs nothing beyond `api_key_env` (its
 * `base_url` defaults to Google's). `vertex` names its Google Cloud `project` (or `project_env`)
 * and `location`; its `base_url` defaults to the location's regional endpoint, and its
 * credentials are Google's Application Default Credentials (a service-account file in
 * `GOOGLE_APPLICATION_CREDENTIALS`, workload identity, the metadata server).
 */
import type { ObjectReader } from '../config-reader.js';
import type { ProviderKind } from '../types.js';

export const GOOGLE_PROVIDER_KEYS = ['project', 'project_env', 'location'] as const;

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** What a Vertex AI provider's config names (null on every other kind). */
export interface GoogleProviderConfig {
  readonly project: string | null;
  readonly projectEnv: string | null;
  readonly location: string;
}

const PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const LOCATION = /^[a-z]+(?:-[a-z]+[0-9]*)*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a provider of this kind may leave `base_url` out (it has a default). */
export function hasDefaultBaseUrl(kind: ProviderKind | undefined): boolean {
  return kind === 'gemini' || kind === 'vertex';
}

/** Reads (and checks) the Google fields of one provider entry; issues name the field's line. */
export function readGoogleFields(p: ObjectReader, kind: ProviderKind | undefined): GoogleProviderConfig | null {
  if (kind === 'gemini' && !p.present('api_key') && !p.present('api_key_env'))
    p.issues.push({ path: p.path, message: 'provider of kind "gemini" needs api_key or api_key_env' });
  if (kind !== 'vertex') {
    for (const key of GOOGLE_PROVIDER_KEYS)
      if (p.present(key)) p.fail(key, `${key} is only for providers of kind "vertex"`);
    return null;
  }
  const project = p.string('project', { pattern: PROJECT, patternHint: 'a Google Cloud project id' }) ?? null;
  const projectEnv =
    p.string('project_env', { pattern: ENV_NAME, patternHint: 'an environment variable name' }) ?? null;
  const location =
    p.string('location', {
      required: true,
      pattern: LOCATION,
      patternHint: 'a Vertex AI location (us-east5, global)',
    }) ?? '';
  if (p.present('project') && p.present('project_env'))
    p.fail('project_env', 'give either project or project_env, not both');
  else if (!p.present('project') && !p.present('project_env'))
    p.issues.push({ path: p.path, message: 'provider of kind "vertex" needs project or project_env' });
  return { project, projectEnv, location };
}

/** Vertex AI's service root for a location: the regional host, or the global one. */
export function vertexDefaultBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/** A Vertex AI provider as the catalog holds it: its project resolved from the environment. */
export interface GoogleProvider {
  readonly project: string;
  readonly location: string;
  /** A credentials file (`GOOGLE_APPLICATION_CREDENTIALS`), or null for the other ADC sources. */
  readonly credentialsFile: string | null;
}

/** The Google part of a provider at build time: its fields, default base URL, or why it is unavailable. */
export function resolveGoogle(
  kind: ProviderKind,
  config: GoogleProviderConfig | null,
  env: Readonly<Record<string, string | undefined>>,
): { google: GoogleProvider | null; defaultBaseUrl: string | null; unavailable: string | null } {
  if (kind === 'gemini') return { google: null, defaultBaseUrl: GEMINI_DEFAULT_BASE_URL, unavailable: null };
  if (kind !== 'vertex' || config === null) return { google: null, defaultBaseUrl: null, unavailable: null };
  const fromEnv = config.projectEnv === null ? undefined : env[config.projectEnv]?.trim();
  const project = config.project ?? (fromEnv === '' ? undefined : fromEnv) ?? null;
  const file = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  return {
    google:
      project === null
        ? null
        : Object.freeze({ project, location: config.location, credentialsFile: file === '' ? null : (file ?? null) }),
    defaultBaseUrl: vertexDefaultBaseUrl(config.location),
    unavailable: project === null ? `environment variable ${config.projectEnv ?? ''} is not set` : null,
  };
}
