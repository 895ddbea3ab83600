import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateToken } from '../../src/domain/keys/tokens.js';
import type { BuiltinFilterConfig, CustomFilterConfig } from '../../src/filters/index.js';
import { spawnChild, type BenchChild } from './child.js';
import {
  ANTHROPIC_UPSTREAM_MODEL,
  BENCH_ANTHROPIC_MODEL,
  BENCH_ANTHROPIC_PROVIDER,
  BENCH_AZURE_MODEL,
  BENCH_AZURE_PROVIDER,
  AZURE_DEPLOYMENT,
  BENCH_MODEL,
  BENCH_PROVIDER,
  BENCH_RESPONSES_MODEL,
  BENCH_RESPONSES_PROVIDER,
  UPSTREAM_MODEL,
} from './payloads.js';
import {
  BENCH_AWS_ENV,
  BENCH_BEDROCK_MODEL,
  BENCH_BEDROCK_PROVIDER,
  BEDROCK_UPSTREAM_MODEL,
} from './bedrock-payloads.js';
import {
  BENCH_GEMINI_MODEL,
  BENCH_GEMINI_PROVIDER,
  GEMINI_UPSTREAM_KEY,
  GEMINI_UPSTREAM_MODEL,
} from './payloads-gemini.js';

/** Every builtin filter: PII redacted, prompt injection flagged. */
const BUILTINS: BuiltinFilterConfig[] = (
  ['email', 'phone', 'ssn', 'credit-card', 'ip-address', 'person-name', 'address'] as const
).map((slug) => ({ slug, action: 'redact' }));

/** Ten custom patterns of the kind a platform team writes (secrets, internal markers). */
const CUSTOM_PATTERNS = [
  'ACME-\\d{6}',
  'sk-[A-Za-z0-9]{20,}',
  '(?i)project\\s+(?:falcon|osprey|kestrel)',
  'AKIA[0-9A-Z]{16}',
  'ghp_[A-Za-z0-9]{36}',
  '(?i)confidential',
  '\\b[A-Z]{2}\\d{2}[A-Z0-9]{11,30}\\b',
  '(?i)internal use only',
  'xox[baprs]-[A-Za-z0-9-]{10,}',
  '-----BEGIN [A-Z ]*PRIVATE KEY-----',
];

export const GUARDRAIL = {
  name: 'bench policy',
  allowed_models: [
    BENCH_MODEL,
    BENCH_ANTHROPIC_MODEL,
    BENCH_RESPONSES_MODEL,
    BENCH_AZURE_MODEL,
    BENCH_BEDROCK_MODEL,
    BENCH_GEMINI_MODEL,
  ],
  allowed_providers: [
    BENCH_PROVIDER,
    BENCH_ANTHROPIC_PROVIDER,
    BENCH_RESPONSES_PROVIDER,
    BENCH_AZURE_PROVIDER,
    BENCH_BEDROCK_PROVIDER,
    BENCH_GEMINI_PROVIDER,
  ],
  limit_usd: 1_000_000,
  reset_interval: 'monthly',
  content_filter_builtins: [
    ...BUILTINS,
    { slug: 'regex-prompt-injection', action: 'flag', scan_scope: 'all_messages' },
  ] satisfies BuiltinFilterConfig[],
  content_filters: CUSTOM_PATTERNS.map((pattern, i): CustomFilterConfig => ({
    pattern,
    action: i % 5 === 4 ? 'block' : 'redact',
    label: `bench-${i}`,
  })),
};

/** The benchmarked provider's display name and every endpoint's price (USD per token); the floor charges the same. */
export const BENCH_PROVIDER_NAME = 'Bench upstream';
export const BENCH_PRICING = { prompt: 0.0000005, completion: 0.0000015 } as const;

export function catalog(upstreamOrigin: string): Record<string, unknown> {
  const timeouts = { connect_ms: 5000, first_byte_ms: 30_000, idle_ms: 30_000 };
  return {
    providers: [
      {
        id: BENCH_PROVIDER,
        name: BENCH_PROVIDER_NAME,
        kind: 'openai',
        base_url: `${upstreamOrigin}/v1`,
        api_key: 'sk-bench-upstream-key-0000000001',
        timeouts,
      },
      {
        // The same fake upstream speaking Anthropic's format: Messages calls to it pass natively.
        id: BENCH_ANTHROPIC_PROVIDER,
        name: 'Bench upstream (Anthropic format)',
        kind: 'anthropic',
        base_url: `${upstreamOrigin}/v1`,
        api_key: 'sk-ant-bench-upstream-key-00000001',
        timeouts,
      },
      {
        // The same fake upstream addressed as an Azure OpenAI resource (deployment URL, api-key).
        id: BENCH_AZURE_PROVIDER,
        name: 'Bench upstream (Azure OpenAI)',
        kind: 'azure',
        base_url: upstreamOrigin,
        api_version: '2024-10-21',
        api_key: 'bench-azure-upstream-key-000000001',
        timeouts,
      },
      {
        // The same fake upstream speaking Bedrock's Converse: every call signed with SigV4.
        id: BENCH_BEDROCK_PROVIDER,
        name: 'Bench upstream (Bedrock Converse)',
        kind: 'bedrock',
        region: 'us-east-1',
        base_url: upstreamOrigin,
        timeouts,
      },
      {
        // The same fake upstream speaking Gemini's generateContent.
        id: BENCH_GEMINI_PROVIDER,
        name: 'Bench upstream (Gemini format)',
        kind: 'gemini',
        base_url: `${upstreamOrigin}/v1beta`,
        api_key: GEMINI_UPSTREAM_KEY,
        timeouts,
      },
      {
        // The same fake upstream serving OpenAI's Responses API: /responses calls to it pass natively.
        id: BENCH_RESPONSES_PROVIDER,
        name: 'Bench upstream (Responses API)',
        kind: 'openai',
        base_url: `${upstreamOrigin}/v1`,
        api_key: 'sk-bench-upstream-key-0000000001',
        native_responses: true,
        timeouts,
      },
    ],
    models: [
      {
        slug: BENCH_MODEL,
        context_length: 128_000,
        endpoints: [
          {
            provider: BENCH_PROVIDER,
            upstream_model: UPSTREAM_MODEL,
            pricing: BENCH_PRICING,
          },
        ],
      },
      {
        slug: BENCH_AZURE_MODEL,
        context_length: 128_000,
        endpoints: [
          {
            provider: BENCH_AZURE_PROVIDER,
            upstream_model: AZURE_DEPLOYMENT,
            pricing: BENCH_PRICING,
          },
        ],
      },
      {
        slug: BENCH_RESPONSES_MODEL,
        context_length: 128_000,
        endpoints: [
          {
            provider: BENCH_RESPONSES_PROVIDER,
            upstream_model: UPSTREAM_MODEL,
            pricing: BENCH_PRICING,
          },
        ],
      },
      {
        slug: BENCH_ANTHROPIC_MODEL,
        context_length: 200_000,
        endpoints: [
          {
            provider: BENCH_ANTHROPIC_PROVIDER,
            upstream_model: ANTHROPIC_UPSTREAM_MODEL,
            pricing: BENCH_PRICING,
          },
        ],
      },
      {
        slug: BENCH_BEDROCK_MODEL,
        context_length: 300_000,
        endpoints: [
          {
            provider: BENCH_BEDROCK_PROVIDER,
            upstream_model: BEDROCK_UPSTREAM_MODEL,
            pricing: BENCH_PRICING,
          },
        ],
      },
      {
        slug: BENCH_GEMINI_MODEL,
        context_length: 1_000_000,
        endpoints: [
          {
            provider: BENCH_GEMINI_PROVIDER,
            upstream_model: GEMINI_UPSTREAM_MODEL,
            pricing: BENCH_PRICING,
          },
        ],
      },
    ],
  };
}

async function manage(
  api: string,
  token: string,
  method: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

function field(record: unknown, name: string): string {
  const value = typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string') throw new Error(`management API answer lacks ${name}`);
  return value;
}

/**
 * Through the management API: an API key with a limit and the guardrail above (plus `extra`
 * fields, e.g. rate limits) assigned to it; returns the key.
 */
export async function configurePolicy(
  api: string,
  managementToken: string,
  extra: Readonly<Record<string, unknown>> = {},
): Promise<string> {
  const created = await manage(api, managementToken, 'POST', '/keys', {
    name: 'bench',
    limit: 1_000_000,
    limit_reset: 'monthly',
  });
  const apiKey = field(created, 'key');
  const hash = field(created.data, 'hash');
  const guardrail = await manage(api, managementToken, 'POST', '/guardrails', { ...GUARDRAIL, ...extra });
  const id = field(guardrail.data, 'id');
  await manage(api, managementToken, 'POST', `/guardrails/${id}/assignments/keys`, { key_hashes: [hash] });
  return apiKey;
}

/** An API key with no limit and no guardrail (to measure what the policy costs). */
export async function plainKey(api: string, managementToken: string): Promise<string> {
  return field(await manage(api, managementToken, 'POST', '/keys', { name: 'bench-plain' }), 'key');
}

export interface SwitchyardTarget {
  child: BenchChild;
  apiKey: string;
}

/**
 * Starts Switchyard over a fresh SQLite file with a catalog pointing at the fake upstream, then
 * through the management API: an API key with a limit, the guardrail above assigned to it.
 */
export async function startSwitchyard(options: {
  dir: string;
  upstreamOrigin: string;
  cores: string | null;
  script: string;
  logLevel: string;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
}): Promise<SwitchyardTarget> {
  const configPath = join(options.dir, 'switchyard-catalog.json');
  writeFileSync(configPath, JSON.stringify(catalog(options.upstreamOrigin), null, 2));
  const managementToken = generateToken();
  const child = await spawnChild({
    name: 'switchyard',
    args: [...(options.nodeArgs ?? []), options.script],
    cores: options.cores,
    logFile: join(options.dir, 'switchyard.log'),
    env: {
      ...process.env,
      ...BENCH_AWS_ENV,
      SWITCHYARD_DATABASE_URL: `sqlite:${join(options.dir, 'switchyard.db')}`,
      SWITCHYARD_MANAGEMENT_KEY: managementToken,
      SWITCHYARD_CONFIG: configPath,
      SWITCHYARD_LOG_LEVEL: options.logLevel,
      NODE_ENV: 'production',
    },
  });
  try {
    const apiKey = await configurePolicy(`http://127.0.0.1:${child.port}/api/v1`, managementToken);
    return { child, apiKey };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
