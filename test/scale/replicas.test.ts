// Three replicas (separate Node processes) on one real PostgreSQL: keys, guardrails and budgets
// stay coherent across them, and a PostgreSQL restart under load gives no 401 and loses nothing.
// The measured numbers are printed (docs/deploy.md quotes them).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { pgSkipReason } from '../harness/env.js';
import { request, startCluster, waitFor, type Cluster, type Replica } from './cluster.js';

interface ChatBody {
  id?: string;
  usage?: { cost: number };
  error?: { code: number; message: string };
}

const say = (line: string) => process.stdout.write(`# scale: ${line}\n`);
const ms = (n: number) => `${n.toFixed(1)} ms`;

describe('three replicas on one PostgreSQL', { skip: pgSkipReason() ?? false }, () => {
  let cluster: Cluster;
  let A: Replica;
  let B: Replica;
  let C: Replica;
  const mgmt = () => cluster.managementToken;

  const newKey = async (via: Replica, body: Record<string, unknown> = {}) => {
    const res = await request<{ key: string; data: { hash: string } }>(via, 'POST', '/keys', mgmt(), {
      name: 'scale',
      ...body,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { token: res.body.key, hash: res.body.data.hash };
  };
  const chat = (via: Replica, token: string, model = 'demo/echo') =>
    request<ChatBody>(via, 'POST', '/chat/completions', token, {
      model,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hello there' }],
    });
  const status = async (p: Promise<{ status: number }>) => (await p).status;
  const keyStatus = (via: Replica, token: string) => status(request(via, 'GET', '/key', token));

  before(async () => {
    // Revalidation timers far away: only the change feed can explain a fast propagation.
    cluster = await startCluster(3, { SWITCHYARD_KEY_CACHE_REVALIDATE_MS: '60000' });
    [A, B, C] = cluster.replicas as [Replica, Replica, Replica];
  });
  after(() => cluster?.close());

  it('a rotation on A refuses the old token on B and C; disabling and deleting propagate too', async () => {
    const afterAnswer: number[] = [];
    const fromRequest: number[] = [];
    for (let i = 0; i < 5; i++) {
      const key = await newKey(A);
      for (const r of [B, C]) assert.equal(await keyStatus(r, key.token), 200, 'cached on B and C');
      const t0 = performance.now();
      const rotated = await request<{ key: string }>(A, 'POST', `/keys/${key.hash}/rotate`, mgmt());
      const answered = performance.now();
      assert.equal(rotated.status, 200);
      const waits = await Promise.all(
        [B, C].map((r) => waitFor(async () => (await keyStatus(r, key.token)) === 401, 5000, `old token on ${r.name}`)),
      );
      afterAnswer.push(Math.max(...waits));
      fromRequest.push(answered - t0 + Math.max(...waits));
      for (const r of [B, C]) assert.equal(await keyStatus(r, rotated.body.key), 200, 'the new token works everywhere');
    }
    say(
      `rotation on A -> old token refused on B and C: max ${ms(Math.max(...afterAnswer))} after A answered ` +
        `(samples ${afterAnswer.map(ms).join(', ')}); max ${ms(Math.max(...fromRequest))} from the rotate request`,
    );
    assert.ok(Math.max(...afterAnswer) < 1000, 'propagation within a second (the revalidation timer is 60 s)');

    const key = await newKey(A);
    for (const r of [A, C]) assert.equal(await keyStatus(r, key.token), 200);
    assert.equal((await request(B, 'PATCH', `/keys/${key.hash}`, mgmt(), { disabled: true })).status, 200);
    const disabled = await Promise.all(
      [A, C].map((r) => waitFor(async () => (await keyStatus(r, key.token)) === 401, 5000, 'disabled')),
    );
    assert.equal((await request(B, 'PATCH', `/keys/${key.hash}`, mgmt(), { disabled: false })).status, 200);
    await Promise.all(
      [A, C].map((r) => waitFor(async () => (await keyStatus(r, key.token)) === 200, 5000, 're-enabled')),
    );
    assert.equal((await request(C, 'DELETE', `/keys/${key.hash}`, mgmt())).status, 200);
    const deleted = await Promise.all(
      [A, B].map((r) => waitFor(async () => (await keyStatus(r, key.token)) === 401, 5000, 'deleted')),
    );
    say(
      `disable on B -> refused on A and C: ${ms(Math.max(...disabled))}; delete on C -> refused on A and B: ${ms(Math.max(...deleted))}`,
    );
  });

  it('guardrail edits and assignment changes apply on every replica', async () => {
    const key = await newKey(A);
    for (const r of [A, B, C]) assert.equal(await status(chat(r, key.token)), 200, 'policy cached everywhere');
    const created = await request<{ data: { id: string } }>(A, 'POST', '/guardrails', mgmt(), {
      name: 'scale-g',
      allowed_models: ['demo/fast'],
    });
    assert.equal(created.status, 201);
    const id = created.body.data.id;
    assert.equal(
      (await request(A, 'POST', `/guardrails/${id}/assignments/keys`, mgmt(), { key_hashes: [key.hash] })).status,
      200,
    );
    const assigned = await Promise.all(
      [B, C].map((r) =>
        waitFor(async () => (await status(chat(r, key.token))) === 403, 5000, `assignment on ${r.name}`),
      ),
    );
    assert.equal(await status(chat(C, key.token, 'demo/fast')), 200);

    assert.equal(
      (await request(B, 'PATCH', `/guardrails/${id}`, mgmt(), { allowed_models: ['demo/echo'] })).status,
      200,
    );
    const edited = await Promise.all(
      [A, C].map((r) =>
        waitFor(async () => (await status(chat(r, key.token, 'demo/fast'))) === 403, 5000, `edit on ${r.name}`),
      ),
    );
    for (const r of [A, C]) assert.equal(await status(chat(r, key.token)), 200);

    assert.equal(
      (await request(C, 'POST', `/guardrails/${id}/assignments/keys/remove`, mgmt(), { key_hashes: [key.hash] }))
        .status,
      200,
    );
    const removed = await Promise.all(
      [A, B].map((r) =>
        waitFor(async () => (await status(chat(r, key.token, 'demo/fast'))) === 200, 5000, `unassign on ${r.name}`),
      ),
    );
    say(
      `guardrail assigned on A -> enforced on B and C: ${ms(Math.max(...assigned))}; edited on B -> on A and C: ` +
        `${ms(Math.max(...edited))}; unassigned on C -> on A and B: ${ms(Math.max(...removed))}`,
    );
  });

  it('200 concurrent calls spread over the replicas against a small limit (20 calls) overspend by at most three calls', async () => {
    const probe = await chat(A, (await newKey(A)).token);
    const oneCall = probe.body.usage?.cost ?? 0;
    assert.ok(oneCall > 0);
    const limit = oneCall * 20;
    const key = await newKey(A, { limit });
    const replicas = [A, B, C];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => chat(replicas[i % 3] as Replica, key.token)),
    );
    const codes = new Map<number, number>();
    for (const r of results) codes.set(r.status, (codes.get(r.status) ?? 0) + 1);
    assert.ok(
      results.every((r) => r.status === 200 || r.status === 402),
      JSON.stringify([...codes]),
    );
    const ok = results.filter((r) => r.status === 200);
    const spent = ok.reduce((n, r) => n + (r.body.usage?.cost ?? 0), 0);
    const biggest = Math.max(...ok.map((r) => r.body.usage?.cost ?? 0));
    say(
      `200 calls over 3 replicas, limit ${limit.toExponential(3)} USD (${(limit / oneCall).toFixed(1)} calls): ` +
        `${ok.length} admitted, spent ${spent.toExponential(3)}, overspend ${Math.max(0, spent - limit).toExponential(3)} USD ` +
        `(${(Math.max(0, spent - limit) / biggest).toFixed(2)} calls)`,
    );
    assert.ok(ok.length >= 1);
    assert.ok(spent <= limit + 3 * biggest + 1e-12, `spent ${spent} > limit ${limit} + 3 × ${biggest}`);
    // The ledger agrees once every replica has flushed.
    await waitFor(
      async () => {
        const info = await request<{ data: { usage: number } }>(B, 'GET', `/keys/${key.hash}`, mgmt());
        return Math.abs(info.body.data.usage - spent) < 1e-12;
      },
      5000,
      'usage in the ledger',
    );
  });

  it('a PostgreSQL restart under load: no 401, and every answered call is in the ledger', async () => {
    const free = await newKey(A);
    const limited = await newKey(A, { limit: 1000 });
    for (const r of [A, B, C]) for (const k of [free, limited]) assert.equal(await status(chat(r, k.token)), 200);
    const answered: { status: number; id?: string; cost: number; key: string }[] = [];
    let running = true;
    const worker = async (n: number) => {
      for (let i = n; running; i++) {
        const key = i % 2 === 0 ? free : limited;
        const res = await chat([A, B, C][i % 3] as Replica, key.token).catch(
          (): { status: number; body: ChatBody } => ({ status: 0, body: {} }),
        );
        answered.push({ status: res.status, id: res.body.id, cost: res.body.usage?.cost ?? 0, key: key.hash });
      }
    };
    const load = Promise.all(Array.from({ length: 12 }, (_, n) => worker(n)));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const t0 = performance.now();
    const restarting = cluster.pg.restart({ downMs: 1500 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    // A management read needs the database: 503 (retry), not 500 and not 401.
    const usageWhileDown = await request(A, 'GET', '/key', free.token);
    await restarting;
    const outage = performance.now() - t0;
    assert.equal(usageWhileDown.status, 503, JSON.stringify(usageWhileDown.body));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await load;
    const codes = new Map<number, number>();
    for (const a of answered) codes.set(a.status, (codes.get(a.status) ?? 0) + 1);
    const refusedLimited = answered.filter((a) => a.status === 503 && a.key === limited.hash).length;
    say(
      `PostgreSQL down for ${ms(outage)} under load: ${answered.length} calls, statuses ${JSON.stringify(Object.fromEntries(codes))} ` +
        `(503: ${refusedLimited} of the key with a limit, whose lease ran out, ${(codes.get(503) ?? 0) - refusedLimited} of the key without)`,
    );
    assert.equal(codes.get(401) ?? 0, 0, 'no valid key was refused');
    assert.ok(
      [...codes.keys()].every((c) => c === 200 || c === 503),
      'only 200 or 503',
    );

    const ok = answered.filter((a) => a.status === 200 && a.id !== undefined);
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const ids = ok.map((a) => a.id ?? '');
      await waitFor(
        async () => {
          const found = await db.query<{ n: string }>('SELECT count(*) AS n FROM generations WHERE id = ANY($1)', [
            ids,
          ]);
          return Number(found.rows[0]?.n) === ids.length;
        },
        20_000,
        'every answered call in the ledger',
      );
      const spend = await db.query<{ amount_usd: number }>(
        'SELECT amount_usd FROM spend_counters WHERE account = $1 AND "window" = \'lifetime\'',
        [free.hash],
      );
      const mine = ok.filter((a) => a.key === free.hash);
      // Every call of the key costs the same; three warm-up calls came before the load.
      const expected = (mine.length + 3) * (mine[0]?.cost ?? 0);
      assert.ok(
        Math.abs(Number(spend.rows[0]?.amount_usd) - expected) < 1e-9,
        `spend ${spend.rows[0]?.amount_usd} vs ${expected}: counted once per call`,
      );
      say(`ledger after recovery: ${ids.length}/${ids.length} answered calls stored`);
    } finally {
      await db.end();
    }
    for (const r of [A, B, C]) {
      await waitFor(
        async () => /^switchyard_change_feed_up 1$/m.test((await request<string>(r, 'GET', '/metrics', mgmt())).body),
        10_000,
        `feed back on ${r.name}`,
      );
    }
    const metrics = (await request<string>(B, 'GET', '/metrics', mgmt())).body;
    const feedLines = metrics.split('\n').filter((l) => /^switchyard_(change_feed|auth)_/.test(l));
    const warnings = B.warnings.filter((l) => !l.includes('"reqId"')).map((l) => l.slice(0, 300));
    assert.ok(
      feedLines.some((l) => /^switchyard_change_feed_reconnects_total [1-9]/.test(l)),
      [...feedLines, ...warnings].join('\n'),
    );
    say(`replica B after the restart: ${feedLines.join('; ')}`);
  });
});
