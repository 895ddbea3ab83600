import type { ObjectReader } from '../config-reader.js';
import type { ProviderKind } from '../types.js';

/**
 * The catalog fields of `kind: bedrock` (AWS Bedrock Runtime): `region` (or `region_env`, the
 * variable to read it from: the provider is unavailable while it is unset), and `profile` (a named
 * profile of the shared AWS config files; without one the AWS default chain decides: environment,
 * shared files, web identity, ECS and EC2 metadata). `base_url` overrides the regional endpoint
 * (a VPC endpoint); `api_key_env` names a Bedrock API key, sent as a bearer token instead of
 * signing. Validation reports `file:line` like every other field.
 */

export const BEDROCK_KEYS = ['region', 'region_env', 'profile'] as const;

export interface BedrockFields {
  readonly region: string | null;
  readonly regionEnv: string | null;
  readonly profile: string | null;
}

/** What a built catalog provider of kind bedrock carries: the region it signs for. */
export interface BedrockSettings {
  readonly region: string;
  readonly profile: string | null;
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const PROFILE = /^[A-Za-z0-9_.+=,@-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The bedrock fields of a provider entry; on another kind, each of them is an error. */
export function readBedrockFields(p: ObjectReader, kind: ProviderKind | undefined): BedrockFields | null {
  if (kind !== 'bedrock') {
    for (const key of BEDROCK_KEYS) if (p.present(key)) p.fail(key, 'only providers of kind "bedrock" take this key');
    return null;
  }
  const region = p.string('region', { pattern: REGION, patternHint: 'an AWS region such as us-east-1' }) ?? null;
  const regionEnv = p.string('region_env', { pattern: ENV_NAME, patternHint: 'an environment variable name' }) ?? null;
  const profile = p.string('profile', { pattern: PROFILE, patternHint: 'an AWS profile name' }) ?? null;
  if (p.present('region') && p.present('region_env'))
    p.fail('region_env', 'give either region or region_env, not both');
  const located = ['region', 'region_env', 'base_url', 'base_url_env'].some((key) => p.present(key));
  if (!located) p.issues.push({ path: p.path, message: 'provider of kind "bedrock" needs region (or base_url)' });
  return { region, regionEnv, profile };
}

/** A bedrock provider's URL comes from its region when no base_url is given. */
export function regionImpliesBaseUrl(kind: ProviderKind | undefined): boolean {
  return kind === 'bedrock';
}

/**
 * The built settings: the region given (or read from `region_env`; unset, the provider is
 * unavailable), else the one the environment names (`AWS_REGION`, `AWS_DEFAULT_REGION`, as the
 * AWS SDK reads them), else the one in a regional base URL.
 */
export function bedrockSettings(
  fields: BedrockFields,
  baseUrl: string | null,
  env: Readonly<Record<string, string | undefined>>,
): { settings: BedrockSettings; baseUrl: string; unavailableReason: string | null } {
  if (fields.regionEnv !== null) {
    const region = nonEmpty(env[fields.regionEnv]);
    const settings = Object.freeze({ region: region ?? 'us-east-1', profile: fields.profile });
    if (region === undefined || !REGION.test(region)) {
      const problem = region === undefined ? 'is not set' : 'is not an AWS region';
      return {
        settings,
        baseUrl: baseUrl ?? '',
        unavailableReason: `environment variable ${fields.regionEnv} ${problem}`,
      };
    }
    return bedrockSettings({ ...fields, region, regionEnv: null }, baseUrl, env);
  }
  const fromUrl =
    baseUrl === null ? undefined : /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(baseUrl)?.[1];
  const region =
    fields.region ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? fromUrl ?? 'us-east-1';
  return {
    settings: Object.freeze({ region, profile: fields.profile }),
    baseUrl: baseUrl ?? `https://bedrock-runtime.${region}.amazonaws.com`,
    unavailableReason: null,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
