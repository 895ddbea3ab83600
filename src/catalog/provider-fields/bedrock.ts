import type { ObjectReader } from '../config-reader.js';
import type { ProviderKind } from '../types.js';

/**
 * The catalog fields of `kind: bedrock` (AWS Bedrock Runtime): `region`, and `profile` (a named
 * profile of the shared AWS config files; without one the AWS default chain decides: environment,
 * shared files, web identity, ECS and EC2 metadata). `base_url` overrides the regional endpoint
 * (a VPC endpoint); `api_key_env` names a Bedrock API key, sent as a bearer token instead of
 * signing. Validation reports `file:line` like every other field.
 */

export const BEDROCK_KEYS = ['region', 'profile'] as const;

export interface BedrockFields {
  readonly region: string | null;
  readonly profile: string | null;
}

/** What a built catalog provider of kind bedrock carries: the region it signs for. */
export interface BedrockSettings {
  readonly region: string;
  readonly profile: string | null;
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const PROFILE = /^[A-Za-z0-9_.+=,@-]+$/;

/** The bedrock fields of a provider entry; on another kind, each of them is an error. */
export function readBedrockFields(p: ObjectReader, kind: ProviderKind | undefined): BedrockFields | null {
  if (kind !== 'bedrock') {
    for (const key of BEDROCK_KEYS) if (p.present(key)) p.fail(key, 'only providers of kind "bedrock" take this key');
    return null;
  }
  const region = p.string('region', { pattern: REGION, patternHint: 'an AWS region such as us-east-1' }) ?? null;
  const profile = p.string('profile', { pattern: PROFILE, patternHint: 'an AWS profile name' }) ?? null;
  if (!p.present('region') && !p.present('base_url') && !p.present('base_url_env'))
    p.issues.push({ path: p.path, message: 'provider of kind "bedrock" needs region (or base_url)' });
  return { region, profile };
}

/** A bedrock provider's URL comes from its region when no base_url is given. */
export function regionImpliesBaseUrl(kind: ProviderKind | undefined): boolean {
  return kind === 'bedrock';
}

/**
 * The built settings: the region given, else the one the environment names (`AWS_REGION`,
 * `AWS_DEFAULT_REGION`, as the AWS SDK reads them), else the one in a regional base URL.
 */
export function bedrockSettings(
  fields: BedrockFields,
  baseUrl: string | null,
  env: Readonly<Record<string, string | undefined>>,
): { settings: BedrockSettings; baseUrl: string } {
  const fromUrl =
    baseUrl === null ? undefined : /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(baseUrl)?.[1];
  const region =
    fields.region ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? fromUrl ?? 'us-east-1';
  return {
    settings: Object.freeze({ region, profile: fields.profile }),
    baseUrl: baseUrl ?? `https://bedrock-runtime.${region}.amazonaws.com`,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
