/**
 * Orders the surviving endpoints. Keys, most significant first:
 *   1. the model's place in the request (`model`, then `models`), unless sort.partition = none;
 *   2. healthy before breaker-open;
 *   3. providers named in `order`, in that order, before the rest;
 *   4. endpoints that meet preferred_max_latency / preferred_min_throughput (or have no data)
 *      before those known to miss them (soft: never removed);
 *   5. the sort: throughput (EWMA tokens/s, high first) or latency (EWMA ms, low first), endpoints
 *      without data after those with data; price and exacto and the default: price;
 *   6. price (prompt + completion per token), then config order.
 */
import { providerMatches, type Entry } from './stages.js';
import type { HealthView, Percentiles, ProviderPreferences } from './types.js';

function threshold(p: Percentiles | null): number | undefined {
  if (p === null) return undefined;
  return p.p50 ?? p.p75 ?? p.p90 ?? p.p99;
}

interface Keyed {
  readonly entry: Entry;
  readonly keys: readonly number[];
}

function orderIndex(entry: Entry, order: readonly string[] | null): number {
  if (order === null) return 0;
  const index = order.findIndex((name) => providerMatches(entry.provider, [name]));
  return index < 0 ? order.length : index;
}

export function orderEntries(entries: readonly Entry[], prefs: ProviderPreferences, health: HealthView): Entry[] {
  const partitioned = prefs.sort?.partition !== 'none';
  const by = prefs.sort?.by ?? 'price';
  const maxLatencyS = threshold(prefs.preferredMaxLatency);
  const minThroughput = threshold(prefs.preferredMinThroughput);
  const keyed: Keyed[] = entries.map((entry) => {
    const key = entry.endpoint.key;
    const latency = health.latencyMs(key);
    const tps = health.throughput(key);
    const missesSoft =
      (maxLatencyS !== undefined && latency !== undefined && latency > maxLatencyS * 1000) ||
      (minThroughput !== undefined && tps !== undefined && tps < minThroughput);
    let metricMissing = 0;
    let metric = 0;
    if (by === 'throughput') {
      metricMissing = tps === undefined ? 1 : 0;
      metric = tps === undefined ? 0 : -tps;
    } else if (by === 'latency') {
      metricMissing = latency === undefined ? 1 : 0;
      metric = latency ?? 0;
    }
    const price = entry.endpoint.pricing.prompt + entry.endpoint.pricing.completion;
    return {
      entry,
      keys: [
        partitioned ? entry.modelIndex : 0,
        health.isHealthy(key) ? 0 : 1,
        orderIndex(entry, prefs.order),
        missesSoft ? 1 : 0,
        metricMissing,
        metric,
        price,
        entry.modelIndex,
        entry.endpointIndex,
      ],
    };
  });
  keyed.sort((a, b) => {
    for (let i = 0; i < a.keys.length; i += 1) {
      const d = (a.keys[i] ?? 0) - (b.keys[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
  return keyed.map((k) => k.entry);
}
