import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full GC before it
 * collects again. Left to itself (the default, 0), V8 lets the heap grow to several times its
 * live size when full collections look cheap, so a busy gateway's peak RSS is well above its
 * live heap. A small percentage keeps peak memory near the live size, at the price of many more
 * full collections, whose main-thread steps delay every stream in flight. A deployment short of
 * memory rather than latency can set it; nothing is capped either way (a heap that needs more
 * still grows). The measured trade-off is in docs/performance.md.
 *
 * The flag is read by V8 each time it sizes the heap after a collection, so setting it at start-up
 * (after the VM started) takes effect.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}

/** V8's own factor by which the young generation's semi-spaces grow (`--semi-space-growth-factor`). */
const V8_SEMI_SPACE_GROWTH = 2;

/** Whoever launched Node chose the young generation's sizing: leave it alone. */
function youngGenerationChosen(): boolean {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  return /semi[-_]space/.test(given);
}

/**
 * The largest semi-space the young generation grows to under load, MB (V8's own limit is 16).
 * Each semi-space size is a power of two, so the growth stops exactly here.
 */
export const YOUNG_SEMI_SPACE_MB = 8;

let held = false;
let bounded = false;
let growthFactor = V8_SEMI_SPACE_GROWTH;

function setGrowthFactor(factor: number): void {
  if (factor === growthFactor) return;
  growthFactor = factor;
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/**
 * Start-up (loading the modules, migrating, loading the catalog and the token tables) allocates
 * enough that V8 grows the young generation to its full size, and an idle server keeps it
 * resident. Held at its initial size while starting, it stays small until the server sees load;
 * `releaseYoungGeneration` (once the port is open) gives V8 back its own growth, so under load
 * the young generation grows as before, up to `YOUNG_SEMI_SPACE_MB`. V8 reads the factor each
 * time it grows the space.
 */
export function holdYoungGeneration(): void {
  if (held || youngGenerationChosen()) return;
  held = true;
  setGrowthFactor(1);
}

/**
 * Gives the young generation its growth back and bounds it: `--max-semi-space-size` is read only
 * when V8 starts, so after each scavenge the growth factor is set to 1 once the semi-spaces have
 * reached `YOUNG_SEMI_SPACE_MB` and back to V8's own while they are smaller (V8 shrinks them when
 * the allocation rate falls). What the young generation no longer holds at its full 16 MB is
 * resident only while it is live. Off when the launch chose the young generation's sizing.
 */
export function releaseYoungGeneration(): void {
  if (held) {
    held = false;
    setGrowthFactor(V8_SEMI_SPACE_GROWTH);
  }
  if (bounded || youngGenerationChosen()) return;
  bounded = true;
  const bound = YOUNG_SEMI_SPACE_MB * 2 * 1024 * 1024;
  new PerformanceObserver((list) => {
    if (held || !list.getEntries().some((e) => isScavenge(e.detail))) return;
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young !== undefined) setGrowthFactor(young.space_size >= bound ? 1 : V8_SEMI_SPACE_GROWTH);
  }).observe({ entryTypes: ['gc'] });
}

function isScavenge(detail: unknown): boolean {
  return (
    typeof detail === 'object' &&
    detail !== null &&
    (detail as { kind?: unknown }).kind === constants.NODE_PERFORMANCE_GC_MINOR
  );
}
