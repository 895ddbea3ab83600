/**
 * The routing plan of the benchmark's call (its catalog, its guardrail's allow lists, every
 * endpoint healthy), this build against another build's `dist/` in the same process, builds
 * alternated per round. Both builds must plan the same candidates (checked first).
 *   node dist/bench/plan-route-bench.js --base /path/to/other/dist [--calls 50000] [--rounds 6]
 */
import { isDeepStrictEqual } from 'node:util';
import { vsBaseArgs } from './vs-base-args.js';
import { catalogFromObject as ownCatalog } from '../src/catalog/index.js';
import { EndpointHealth as OwnHealth, planRoute as ownPlan, OPEN_POLICY } from '../src/domain/routing/index.js';
import type { RouteResult, RoutingPolicy } from '../src/domain/routing/index.js';
import { BENCH_MODEL } from './gateway-bench/payloads.js';
import { GUARDRAIL, catalog } from './gateway-bench/switchyard-target.js';

interface Module {
  catalogFromObject: typeof ownCatalog;
  EndpointHealth: typeof OwnHealth;
  planRoute: typeof ownPlan;
}
interface Build {
  name: string;
  plan: () => RouteResult;
}

const values = vsBaseArgs({ calls: 50_000, rounds: 6 });

const policy: RoutingPolicy = {
  ...OPEN_POLICY,
  allowedModels: new Set(GUARDRAIL.allowed_models),
  allowedProviders: new Set(GUARDRAIL.allowed_providers.map((p) => p.toLowerCase())),
};

function build(name: string, mod: Module): Build {
  const snapshot = mod.catalogFromObject(catalog('http://127.0.0.1:9'), { env: {}, defaultCreated: 1 });
  const health = new mod.EndpointHealth();
  return { name, plan: () => mod.planRoute({ catalog: snapshot, model: BENCH_MODEL, policy, health }) };
}

function shape(result: RouteResult): unknown {
  return result.ok ? result.candidates.map((c) => [c.model.slug, c.provider.id, c.healthy]) : result.refusal;
}

function microsPerPlan(b: Build): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < values.calls; i++) b.plan();
  return Number(process.hrtime.bigint() - start) / 1000 / values.calls;
}

const base = (await import(`${values.base}/src/catalog/index.js`)) as Pick<Module, 'catalogFromObject'>;
const baseRouting = (await import(`${values.base}/src/domain/routing/index.js`)) as Omit<Module, 'catalogFromObject'>;
const builds = [
  build('base', { ...base, ...baseRouting }),
  build('this build', { catalogFromObject: ownCatalog, EndpointHealth: OwnHealth, planRoute: ownPlan }),
];
const [a, b] = builds.map((x) => shape(x.plan()));
if (!isDeepStrictEqual(a, b)) throw new Error(`the two builds plan differently: ${JSON.stringify([a, b])}`);
console.log(`plan: ${JSON.stringify(b)}`);
for (const x of builds) for (let i = 0; i < 20_000; i++) x.plan(); // warm up
const micros = new Map<string, number[]>(builds.map((x) => [x.name, []]));
for (let r = 0; r < values.rounds; r++) for (const x of builds) micros.get(x.name)?.push(microsPerPlan(x));
console.log(`planRoute of ${BENCH_MODEL}: ${values.calls} calls × ${values.rounds} rounds, µs per call`);
for (const x of builds) {
  const us = (micros.get(x.name) ?? []).sort((p, q) => p - q);
  console.log(`  ${x.name.padEnd(10)} min ${(us[0] ?? 0).toFixed(3)}  median ${(us[us.length >> 1] ?? 0).toFixed(3)}`);
}
