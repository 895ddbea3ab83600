// Helpers of auth-abuse-bench.ts: the server's store-read counter, and how long a key created
// elsewhere takes to be accepted by a replica whose address is throttled.
import { generateToken } from '../src/domain/keys/tokens.js';

export interface Replica {
  api: string;
  managementToken: string;
}

/** `switchyard_auth_key_store_reads_total` of one server (from its metrics endpoint). */
export async function storeReads(server: Replica): Promise<number> {
  const res = await fetch(`${server.api}/metrics`, { headers: { authorization: `Bearer ${server.managementToken}` } });
  const text = await res.text();
  const match = /^switchyard_auth_key_store_reads_total (\d+)/m.exec(text);
  if (match?.[1] === undefined) throw new Error('no switchyard_auth_key_store_reads_total in /metrics');
  return Number(match[1]);
}

async function keyStatus(server: Replica, token: string): Promise<number> {
  const res = await fetch(`${server.api}/key`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/**
 * Throttles this address on `target` (bogus tokens until a 429), then `keys` times: a key is
 * created through `creator`, and `target` is called with it at once and again until it answers
 * 200. Prints the time from the creator's answer to the 200, and how many first calls were 200.
 */
export async function keyAcceptance(
  label: string,
  options: { creator: { name: string; create(): Promise<string> }; target: Replica; keys: number },
): Promise<void> {
  const { creator, target } = options;
  let throttled = false;
  for (let i = 0; i < 1000 && !throttled; i += 1) throttled = (await keyStatus(target, generateToken())) === 429;
  if (!throttled) throw new Error('the address was never throttled');
  const waits: number[] = [];
  let firstCallOk = 0;
  for (let i = 0; i < options.keys; i += 1) {
    const token = await creator.create();
    const t0 = performance.now();
    let calls = 0;
    for (;;) {
      calls += 1;
      if ((await keyStatus(target, token)) === 200) break;
      if (performance.now() - t0 > 10_000) throw new Error('a new key was not accepted within 10 s');
    }
    waits.push(performance.now() - t0);
    if (calls === 1) firstCallOk += 1;
  }
  waits.sort((x, y) => x - y);
  console.log(
    [
      `${label}: key created by ${creator.name}, accepted by a throttled replica after`,
      `median ${quantile(waits, 0.5).toFixed(1)} ms, p95 ${quantile(waits, 0.95).toFixed(1)} ms,`,
      `max ${(waits.at(-1) ?? Number.NaN).toFixed(1)} ms;`,
      `first call 200 for ${firstCallOk} of ${options.keys} keys`,
    ].join(' '),
  );
}
