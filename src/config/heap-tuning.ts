import { setFlagsFromString } from 'node:v8';

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

let held = false;

/**
 * Start-up (loading the modules, migrating, loading the catalog and the token tables) allocates
 * enough that V8 grows the young generation to its full 2 × 16 MB, and an idle server keeps it
 * resident. Held at its initial size while starting, it stays small until the server sees load;
 * `releaseYoungGeneration` (once the port is open) gives V8 back its own growth, so under load
 * the young generation grows exactly as before. V8 reads the factor each time it grows the space.
 */
export function holdYoungGeneration(): void {
  if (held || youngGenerationChosen()) return;
  held = true;
  setFlagsFromString('--semi-space-growth-factor=1');
}

export function releaseYoungGeneration(): void {
  if (!held) return;
  held = false;
  setFlagsFromString(`--semi-space-growth-factor=${V8_SEMI_SPACE_GROWTH}`);
}
