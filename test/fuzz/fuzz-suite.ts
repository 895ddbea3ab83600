// A property-based fuzzer over the OpenAPI document: every operation it lists gets valid,
// boundary and hostile requests generated from its own schemas (fast-check), sent to the real
// server on SQLite and on PostgreSQL. Asserted on every answer: no 5xx, the error envelope on
// every error, and no change to any stored row by a refused request.
//
// One file per database (each within the runner's per-file time limit).
// Bounded by SWITCHYARD_FUZZ_SECONDS per database (default 55) and SWITCHYARD_FUZZ_PER_OPERATION
// requests per operation (default 60); SWITCHYARD_FUZZ_SEED replays a run (the seed is printed).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { call, startTestServer, type TestDialect, type TestServer } from '../support/server.js';
import { operationsOf, requestArb, type FuzzRequest, type Operation } from './operations.js';
import type { GenContext, Schema } from './schema-arbitrary.js';
import { openStateReader, stateDiff, withoutRefusalRecords, type StateReader } from './state-snapshot.js';

const SECONDS = Number(process.env.SWITCHYARD_FUZZ_SECONDS ?? 55);
const PER_OPERATION = Number(process.env.SWITCHYARD_FUZZ_PER_OPERATION ?? 60);
const SEED = Number(process.env.SWITCHYARD_FUZZ_SEED ?? Date.now() % 2_147_483_647);

/**
 * Tables left out of the before/after comparison, each for a reason that is not a refused
 * request writing: the migration bookkeeping of the store.
 */
const UNCOMPARED_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * A refused console sign-in is recorded in the audit log by design (docs/api.md, "Audit log"):
 * the one write a refused request makes, left out of the comparison.
 */
function withoutRefusedSignIns(snapshot: Map<string, string[]>): Map<string, string[]> {
  const audit = snapshot.get('audit_log');
  if (audit === undefined) return snapshot;
  const kept = audit.filter((row) => !row.includes('"action":"console.sign_in_failed"'));
  return new Map([...snapshot, ['audit_log', kept]]);
}

interface Finding {
  what: 'server error' | 'not the envelope' | 'state changed';
  request: string;
  detail: string;
}

function describeRequest(req: FuzzRequest): string {
  const body = req.body === undefined ? '' : ` body=${req.body.slice(0, 600)}${req.body.length > 600 ? '…' : ''}`;
  return `${req.op.method} ${req.url.slice(0, 160)} [${req.kind}]${body}`;
}

/** The envelope, or on the Anthropic Messages paths Anthropic's error shape (what its SDK parses). */
function isEnvelope(text: string, status: number, path: string): boolean {
  try {
    const parsed = JSON.parse(text) as {
      type?: unknown;
      error?: { code?: unknown; type?: unknown; message?: unknown };
    };
    if (path.startsWith('/messages') && parsed.type === 'error')
      return typeof parsed.error?.type === 'string' && typeof parsed.error.message === 'string';
    return parsed.error?.code === status && typeof parsed.error.message === 'string';
  } catch {
    return false;
  }
}

/** The API path a request reaches: fetch resolves dot segments (`..`, `%2e%2e`) before it sends. */
function reachedPath(api: string, url: string): string {
  return new URL(`${api}${url}`).pathname.slice(new URL(api).pathname.length);
}

async function fixtures(server: TestServer): Promise<{ hints: GenContext['hints']; apiKey: string }> {
  const token = server.managementToken;
  const post = async (path: string, body: unknown) => {
    const res = await call<{ data?: Record<string, unknown>; key?: string }>(server, 'POST', path, { token, body });
    assert.ok(res.status < 300, `fixture ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const callKey = await post('/keys', { name: 'fuzz caller' });
  const hashes: string[] = [];
  const guardrails: string[] = [];
  const workspaces: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    hashes.push(String((await post('/keys', { name: `fuzz ${i}` })).data?.hash));
    guardrails.push(String((await post('/guardrails', { name: `fuzz ${i}` })).data?.id));
    workspaces.push(String((await post('/workspaces', { name: `Fuzz ${i}`, slug: `fuzz-${i}` })).data?.id));
  }
  const models = await call<{ data: { id: string }[] }>(server, 'GET', '/models', { token });
  const modelIds = models.body.data.map((m) => m.id).slice(0, 5);
  return {
    apiKey: String(callKey.key),
    hints: {
      model: modelIds,
      models: [modelIds],
      hash: hashes,
      id: [...guardrails, ...workspaces],
      workspace_id: workspaces,
      key_hashes: [hashes],
      role: ['user', 'system', 'assistant'],
      messages: [[{ role: 'user', content: 'hello' }]],
      prompt: ['hello'],
      stream: [false, true],
    },
  };
}

/** Management key for everything except operations that answer it 403 (model calls, generation). */
async function tokenFor(server: TestServer, op: Operation, apiKey: string, sample: FuzzRequest): Promise<string> {
  const res = await fetch(`${server.api}${sample.url}`, {
    method: op.method,
    headers: { authorization: `Bearer ${server.managementToken}`, 'content-type': 'application/json' },
    body: op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}',
  });
  await res.text();
  return res.status === 403 ? apiKey : server.managementToken;
}

/** The fuzzer's suite on one database. */
export function fuzzSuite(dialect: TestDialect, skip: string | null = null): void {
  describe(`OpenAPI fuzzer (${dialect})`, { skip: skip ?? false }, () => {
    let server: TestServer;
    let reader: StateReader;
    before(async () => {
      server = await startTestServer({ dialect });
      reader = await openStateReader(server.db.url, UNCOMPARED_TABLES);
    });
    after(async () => {
      await reader.close();
      await server.close();
    });

    test(
      'no 5xx, the envelope on every error, no stored change by a refused request',
      { timeout: (SECONDS + 240) * 1000 },
      async () => {
        const doc = await call(server, 'GET', '/openapi.json', { token: server.managementToken });
        const components = (doc.body.components as { schemas?: Record<string, Schema> } | undefined)?.schemas ?? {};
        const operations = operationsOf(doc.body);
        assert.ok(operations.length >= 30, `only ${operations.length} operations in the document`);
        const { hints, apiKey } = await fixtures(server);
        const ctx: GenContext = { components, hints };
        const queues = operations.map((op, i) =>
          fc.sample(requestArb(op, ctx), { numRuns: PER_OPERATION, seed: SEED + i }),
        );
        const tokens = new Map<string, string>();
        for (const [i, op] of operations.entries()) {
          const first = queues[i]?.[0];
          if (first !== undefined) tokens.set(op.id, await tokenFor(server, op, apiKey, first));
        }

        const findings: Finding[] = [];
        const statuses = new Map<number, number>();
        const settle = () => server.running.services.meter.flush();
        let sent = 0;
        let acceptedWrites = 0;
        let baseline: Map<string, string[]> | null = null;
        const deadline = Date.now() + SECONDS * 1000;
        for (let round = 0; round < PER_OPERATION && Date.now() < deadline; round += 1) {
          for (const [i, op] of operations.entries()) {
            const req = queues[i]?.[round];
            if (req === undefined || Date.now() >= deadline) continue;
            if (baseline === null) {
              await settle();
              baseline = withoutRefusedSignIns(await reader.snapshot());
            }
            const headers: Record<string, string> = { authorization: `Bearer ${tokens.get(op.id) ?? apiKey}` };
            if (req.body !== undefined) headers['content-type'] = 'application/json';
            const res = await fetch(`${server.api}${req.url}`, {
              method: op.method,
              headers,
              body: req.body,
              signal: AbortSignal.timeout(30_000),
            });
            const text = await res.text();
            sent += 1;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            const label = describeRequest(req);
            if (res.status >= 500)
              findings.push({ what: 'server error', request: label, detail: `${res.status} ${text.slice(0, 200)}` });
            if (res.status >= 400 && !isEnvelope(text, res.status, reachedPath(server.api, req.url))) {
              findings.push({
                what: 'not the envelope',
                request: label,
                detail: `${res.status} ${text.slice(0, 200)}`,
              });
            }
            if (res.status >= 400) {
              await settle();
              const now = withoutRefusedSignIns(await reader.snapshot());
              // A refused model call is recorded (a refusal row and its rollup sums): that is not a state change.
              const diff = stateDiff(baseline, withoutRefusalRecords(baseline, now));
              if (diff.length > 0) findings.push({ what: 'state changed', request: label, detail: diff.join('; ') });
              baseline = now;
            } else if (op.method !== 'GET') {
              // The detector's own check: accepted writes must show up in the snapshots.
              await settle();
              const now = withoutRefusedSignIns(await reader.snapshot());
              if (stateDiff(baseline, now).length > 0) acceptedWrites += 1;
              baseline = now;
            }
          }
        }
        const count = (what: Finding['what']) => findings.filter((f) => f.what === what).length;
        const summary = {
          dialect,
          seed: SEED,
          operations: operations.length,
          requests: sent,
          statuses: Object.fromEntries([...statuses.entries()].sort(([a], [b]) => a - b)),
          server_errors: count('server error'),
          non_envelope: count('not the envelope'),
          state_changes: count('state changed'),
          accepted_writes_seen: acceptedWrites,
        };
        console.log(`[fuzz] ${JSON.stringify(summary)}`);
        for (const f of findings.slice(0, 40)) console.log(`[fuzz] ${f.what}: ${f.request} -> ${f.detail}`);
        assert.deepEqual(findings.slice(0, 10), [], `fuzzer findings (seed ${SEED}); see the [fuzz] lines`);
        assert.ok(acceptedWrites > 0, 'no accepted write changed the snapshot: the state comparison sees nothing');
      },
    );
  });
}
