/**
 * CPU a model call's spans cost, export included, without the rest of the gateway: steadier than
 * whole-server figures on a busy machine. In this process: the gateway's trace calls for one
 * call (start, one attempt or a failed attempt and a fallback, settle) through the real
 * `createCallTracer`, batches exported over OTLP/HTTP to a stand-in collector in a child process.
 * Rounds of `--per-round` calls in chunks of 200 (the exporter runs between chunks, as it would
 * between requests), timed with `process.cpuUsage()`; minimum and median over rounds. `off` runs
 * the same loop with no tracer (the gateway's null checks only): the loop's own cost.
 *   node dist/bench/tracing/span-cost-bench.js [--rounds 15] [--per-round 2000]
 */
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import type { GenerationRecord } from '../../src/domain/accounting/types.js';
import type { RouteCandidate } from '../../src/domain/routing/index.js';
import { errors } from '../../src/errors/index.js';
import type { CallTrace, CallTracer, TraceHeaders } from '../../src/gateway/call-tracer.js';
import type { ProviderEndpointConfig } from '../../src/providers/index.js';
import { createCallTracer } from '../../src/observability/tracing.js';
import { spawnChild } from '../gateway-bench/child.js';
import { median } from '../gateway-bench/stats.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    'per-round': { type: 'string', default: '2000' },
  },
});
const rounds = Number(values.rounds);
const perRound = Number(values['per-round']);
const here = dirname(fileURLToPath(import.meta.url));

// Only the fields the spans read; the gateway passes the catalog's objects.
const candidate = (provider: string, upstreamModel: string) =>
  ({
    model: { slug: 'openai/gpt-4o' },
    endpoint: { upstreamModel },
    provider: { id: provider },
  }) as unknown as RouteCandidate;
const primary = candidate('openai', 'gpt-4o-2024-08-06');
const fallback = candidate('azure', 'gpt-4o');
const endpoint = { baseUrl: 'https://api.openai.com/v1' } as unknown as ProviderEndpointConfig;
const failure = errors.badGateway('upstream answered 503');

const generation: GenerationRecord = {
  id: 'gen-1764000000000-0123456789',
  requestId: 'req_00000000-0000-0000-0000-000000000000',
  keyHash: 'a'.repeat(64),
  workspaceId: 'default',
  creatorUserId: 'user',
  model: 'openai/gpt-4o',
  providerId: 'openai',
  upstreamModel: 'gpt-4o-2024-08-06',
  upstreamId: 'chatcmpl-0123456789',
  apiType: 'completions',
  streamed: false,
  cancelled: false,
  finishReason: 'stop',
  nativeFinishReason: 'stop',
  promptTokens: 230,
  completionTokens: 410,
  reasoningTokens: 0,
  cachedTokens: 0,
  usageEstimated: false,
  promptCostUsd: 0.000575,
  completionCostUsd: 0.0041,
  costUsd: 0.004675,
  latencyMs: 420,
  generationTimeMs: 3100,
  presetId: null,
  presetVersion: null,
  flags: [],
  attempts: [{ provider: 'openai', model: 'openai/gpt-4o', status: 200 }],
  createdAt: '2026-11-25T00:00:00.000Z',
};

interface Variant {
  name: string;
  tracer: CallTracer | null;
  headers: TraceHeaders | undefined;
  fallback: boolean;
}

/** What the gateway does with a tracer for one call; with none, only its null checks. */
function oneCall(v: Variant): void {
  const trace: CallTrace | null =
    v.tracer === null
      ? null
      : v.tracer.startCall({ kind: 'chat', model: 'openai/gpt-4o', keyHash: generation.keyHash, headers: v.headers });
  if (trace === null) return;
  if (v.fallback) trace.attempt({ index: 0, candidate: fallback, endpoint }).failed(failure);
  trace.attempt({ index: v.fallback ? 1 : 0, candidate: primary, endpoint }).answered();
  trace.settled(generation, null);
}

async function round(v: Variant): Promise<number> {
  const before = process.cpuUsage();
  for (let done = 0; done < perRound;) {
    const chunk = Math.min(200, perRound - done);
    for (let i = 0; i < chunk; i++) oneCall(v);
    done += chunk;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / perRound;
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-span-bench-'));
const sink = await spawnChild({
  name: 'otlp-sink',
  args: [join(here, 'otlp-sink.js')],
  cores: null,
  logFile: join(dir, 'sink.log'),
});
const tracer = createCallTracer({
  config: {
    endpoint: `http://127.0.0.1:${sink.port}/v1/traces`,
    serviceName: 'bench',
    scheduleDelayMs: 1,
    sampler: { root: 'always_on', ratio: 1, parentBased: true },
  },
  log: (msg) => process.stderr.write(`${msg}\n`),
});
const client = `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7`;
const variants: Variant[] = [
  { name: 'off (no tracer)', tracer: null, headers: undefined, fallback: false },
  { name: 'on, no traceparent', tracer, headers: undefined, fallback: false },
  { name: 'on, client traceparent', tracer, headers: { traceparent: `${client}-01` }, fallback: false },
  { name: 'on, one fallback (3 spans)', tracer, headers: undefined, fallback: true },
  { name: 'on, client not sampled', tracer, headers: { traceparent: `${client}-00` }, fallback: false },
];
try {
  for (const v of variants) await round(v);
  const costs = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let r = 0; r < rounds; r++) for (const v of variants) costs.get(v.name)?.push(await round(v));
  const lines = ['| variant | CPU µs per call, min | median |', '|---|---:|---:|'];
  for (const [name, c] of costs) lines.push(`| ${name} | ${Math.min(...c).toFixed(1)} | ${median(c).toFixed(1)} |`);
  process.stdout.write(
    `${lines.join('\n')}\n\n(${rounds} rounds × ${perRound} calls, export to a collector in another process included)\n`,
  );
} finally {
  await tracer.shutdown();
  await sink.stop();
  rmSync(dir, { recursive: true, force: true });
}
