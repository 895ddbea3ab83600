import { ConsoleConfigError, loadConsoleConfig, type ConsoleConfig } from './console-env.js';
import { loadRetentionConfig, RetentionConfigError, type RetentionConfig } from './retention-env.js';
/**
 * The process environment, read once at start and passed down (never read elsewhere).
 * Names are the product's contract (README, Configuration): never rename one.
 */
export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string;
  managementKey: string | null;
  configPath: string | null;
  bodyLimitBytes: number;
  logLevel: string;
  ownerEmail: string;
  /** Re-read cached key records after this long where the store gives no change signal. */
  keyCacheRevalidateMs: number;
  /** Key store unreachable: a key verified within this long keeps its decision; otherwise 503. */
  keyCacheGraceMs: number;
  /** A stream waiting this long for its first upstream event commits 200 and sends keep-alives. */
  streamKeepAliveAfterMs: number;
  streamKeepAliveEveryMs: number;
  /** How often settled spend and generation records are written to the store. */
  ledgerFlushMs: number;
  /** Forward a request whose content filter threw, instead of refusing it with 503. */
  filtersFailOpen: boolean;
  /**
   * The ledger journal (docs/metering.md): on unless `SWITCHYARD_LEDGER_JOURNAL_DIR=off`; its base
   * directory, null for the default (the SQLite file's directory, or ./data).
   */
  ledgerJournal: { enabled: boolean; baseDir: string | null };
  /** Old-generation growth between full GCs, percent (heap-tuning.ts; default 50); 0 keeps V8's heuristics. */
  heapGrowthPercent: number;
  /** The web console: session cookie, idle expiry, sign-in throttle, built files. */
  console: ConsoleConfig;
  /** Failed authentications per client address and window before 429; 0 turns throttling off. */
  authFailureLimit: number;
  authFailureWindowMs: number;
  /** Client addresses the throttle tracks at most (bounds its memory). */
  authFailureMaxAddresses: number;
  /** A throttled address's failing request is answered (429) after this long: a looping client slows down. */
  authFailureDelayMs: number;
  /** Which proxies may name the client address (X-Forwarded-For): none, all, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | string | number;
  /** Largest upstream JSON answer, and largest single upstream SSE event, accepted (bytes). */
  upstreamMaxBodyBytes: number;
  upstreamMaxEventBytes: number;
  /** A client must send its request headers within this long, its whole request within the second (0: no limit). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** OpenTelemetry traces of model calls; null: off (no SDK loaded, no spans). */
  tracing: TracingConfig | null;
  /** Stored Responses (`store: true`): how long one is kept, and the largest kept (bytes). */
  responses: { retentionMs: number; maxBytes: number };
  /** Refused calls recorded as a row each per key and minute; the rest are summed (docs/metering.md). */
  refusalsPerKeyPerMinute: number;
  /** Pruning of old generations and rollups (docs/deploy.md); off by default. */
  retention: RetentionConfig;
}

export interface TracingConfig {
  /** Where spans are posted (OTLP over HTTP, JSON). */
  endpoint: string;
  /** The `service.name` of the exported resource. */
  serviceName: string;
  /** How long ended spans wait to be exported together (the batch span processor's delay). */
  scheduleDelayMs: number;
  /** Which calls are traced (OTEL_TRACES_SAMPLER and its argument, the standard names and values). */
  sampler: TraceSampler;
}

export interface TraceSampler {
  /** For a call without a sampled-or-not decision from the client. */
  root: 'always_on' | 'always_off' | 'traceidratio';
  /** The share of trace ids sampled by `traceidratio` (0–1). */
  ratio: number;
  /** A client's `traceparent` decides for its call (the `parentbased_` samplers). */
  parentBased: boolean;
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

function traceSampler(env: NodeJS.ProcessEnv): TraceSampler {
  const name = (env.OTEL_TRACES_SAMPLER || 'parentbased_always_on').trim().toLowerCase();
  if (!(SAMPLERS as readonly string[]).includes(name))
    throw new ConfigError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}`);
  const parentBased = name.startsWith('parentbased_');
  const root = name.replace(/^parentbased_/, '') as TraceSampler['root'];
  const arg = (env.OTEL_TRACES_SAMPLER_ARG ?? '').trim();
  const ratio = root === 'traceidratio' && arg !== '' ? Number(arg) : 1;
  if (!(ratio >= 0 && ratio <= 1))
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (the share of traces sampled)');
  return { root, ratio, parentBased };
}

export class ConfigError extends Error {}

function consoleConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  try {
    return loadConsoleConfig(env);
  } catch (error) {
    throw error instanceof ConsoleConfigError ? new ConfigError(error.message) : error;
  }
}

function retentionConfig(env: NodeJS.ProcessEnv): RetentionConfig {
  try {
    return loadRetentionConfig(env);
  } catch (error) {
    throw error instanceof RetentionConfigError ? new ConfigError(error.message) : error;
  }
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false' || raw === 'no') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes') return true;
  throw new ConfigError(`${name} must be true or false`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * Which proxies may set the client address (X-Forwarded-For); unset trusts none. A whole number
 * trusts that many hops in front of the server (`1`: the proxy that connects, whatever its
 * address, as in compose.yaml); otherwise addresses/CIDRs, or `true` for any.
 */
function trustProxy(raw: string | undefined): boolean | string | number {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  return value === 'true' ? true : value;
}

/** The collector's default OTLP/HTTP traces URL, used when tracing is turned on without an endpoint. */
const DEFAULT_TRACES_ENDPOINT = 'http://localhost:4318/v1/traces';

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL`);
  }
  return raw;
}

/**
 * Tracing is on when an OTLP endpoint is set or SWITCHYARD_OTEL is true; SWITCHYARD_OTEL=false or
 * OTEL_SDK_DISABLED=true turns it off whatever else is set. The traces endpoint is taken as
 * given; the general endpoint gets the traces path appended, as every OpenTelemetry SDK does.
 */
function tracingConfig(env: NodeJS.ProcessEnv): TracingConfig | null {
  if (flag(env, 'OTEL_SDK_DISABLED')) return null;
  const switched = (env.SWITCHYARD_OTEL ?? '').trim();
  const on = flag(env, 'SWITCHYARD_OTEL');
  if (switched !== '' && !on) return null;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || '';
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT || '';
  if (!on && traces === '' && general === '') return null;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || '').trim();
  if (protocol === 'grpc') {
    throw new ConfigError('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: Switchyard exports OTLP over HTTP');
  }
  let endpoint = DEFAULT_TRACES_ENDPOINT;
  if (traces !== '') endpoint = httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces);
  else if (general !== '')
    endpoint = `${httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', general).replace(/\/+$/, '')}/v1/traces`;
  return {
    endpoint,
    serviceName: env.OTEL_SERVICE_NAME || 'switchyard',
    scheduleDelayMs: integer(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, 1, 600_000),
    sampler: traceSampler(env),
  };
}

function journalSetting(raw: string | undefined): ServerConfig['ledgerJournal'] {
  const value = (raw ?? '').trim();
  if (value.toLowerCase() === 'off') return { enabled: false, baseDir: null };
  return { enabled: true, baseDir: value === '' ? null : value };
}

export function loadServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const databaseUrl = env.SWITCHYARD_DATABASE_URL || 'sqlite:./data/switchyard.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('SWITCHYARD_DATABASE_URL must start with sqlite: or postgres://');
  }
  const managementKey = env.SWITCHYARD_MANAGEMENT_KEY || null;
  if (managementKey !== null && !/^sk-sy-v1-[0-9a-f]{64}$/.test(managementKey)) {
    throw new ConfigError('SWITCHYARD_MANAGEMENT_KEY must be sk-sy-v1- followed by 64 lowercase hex characters');
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    managementKey,
    configPath: env.SWITCHYARD_CONFIG || null,
    bodyLimitBytes: integer(env, 'SWITCHYARD_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel: env.SWITCHYARD_LOG_LEVEL || 'info',
    ownerEmail: env.SWITCHYARD_OWNER_EMAIL || 'owner@switchyard.local',
    keyCacheRevalidateMs: integer(env, 'SWITCHYARD_KEY_CACHE_REVALIDATE_MS', 1000, 0, 3_600_000),
    keyCacheGraceMs: integer(env, 'SWITCHYARD_KEY_CACHE_GRACE_MS', 60_000, 0, 86_400_000),
    streamKeepAliveAfterMs: integer(env, 'SWITCHYARD_STREAM_KEEPALIVE_AFTER_MS', 2000, 10, 600_000),
    streamKeepAliveEveryMs: integer(env, 'SWITCHYARD_STREAM_KEEPALIVE_EVERY_MS', 10_000, 10, 600_000),
    ledgerFlushMs: integer(env, 'SWITCHYARD_LEDGER_FLUSH_MS', 250, 10, 60_000),
    filtersFailOpen: flag(env, 'SWITCHYARD_FILTERS_FAIL_OPEN'),
    heapGrowthPercent: integer(env, 'SWITCHYARD_HEAP_GROWTH_PERCENT', 50, 0, 1000),
    console: consoleConfig(env),
    authFailureLimit: integer(env, 'SWITCHYARD_AUTH_FAILURE_LIMIT', 20, 0, 1_000_000),
    authFailureWindowMs: integer(env, 'SWITCHYARD_AUTH_FAILURE_WINDOW_MS', 60_000, 1000, 86_400_000),
    authFailureMaxAddresses: integer(env, 'SWITCHYARD_AUTH_FAILURE_MAX_ADDRESSES', 10_000, 1, 10_000_000),
    authFailureDelayMs: integer(env, 'SWITCHYARD_AUTH_FAILURE_DELAY_MS', 1000, 0, 60_000),
    trustProxy: trustProxy(env.SWITCHYARD_TRUST_PROXY),
    tracing: tracingConfig(env),
    ledgerJournal: journalSetting(env.SWITCHYARD_LEDGER_JOURNAL_DIR),
    upstreamMaxBodyBytes: integer(env, 'SWITCHYARD_UPSTREAM_MAX_BODY_BYTES', 8 * MIB, 1024, 1024 * MIB),
    upstreamMaxEventBytes: integer(env, 'SWITCHYARD_UPSTREAM_MAX_EVENT_BYTES', MIB, 1024, 1024 * MIB),
    ...clientTimeouts(env),
    responses: {
      retentionMs: integer(env, 'SWITCHYARD_RESPONSES_RETENTION_DAYS', 30, 0, 3650) * 86_400_000,
      maxBytes: integer(env, 'SWITCHYARD_RESPONSES_MAX_BYTES', 8 * MIB, 1024, 256 * MIB),
    },
    refusalsPerKeyPerMinute: integer(env, 'SWITCHYARD_REFUSALS_PER_KEY_PER_MINUTE', 60, 0, 1_000_000),
    retention: retentionConfig(env),
  };
}

const MIB = 1024 * 1024;

/** Slow clients: Node refuses a request timeout shorter than the headers timeout. */
function clientTimeouts(env: NodeJS.ProcessEnv): { headersTimeoutMs: number; requestTimeoutMs: number } {
  const headersTimeoutMs = integer(env, 'SWITCHYARD_HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000);
  const requestTimeoutMs = integer(env, 'SWITCHYARD_REQUEST_TIMEOUT_MS', 60_000, 0, 3_600_000);
  if (requestTimeoutMs !== 0 && requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError('SWITCHYARD_REQUEST_TIMEOUT_MS must be 0 or at least SWITCHYARD_HEADERS_TIMEOUT_MS');
  }
  return { headersTimeoutMs, requestTimeoutMs };
}
