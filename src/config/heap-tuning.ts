import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full GC before it
 * collects again. Left to itself (0), V8 lets the heap grow to up to four times its live size
 * when full collections look cheap, which under load is most of a busy gateway's peak RSS. The
 * server's default (50) bounds the growth at half the live size: with few objects promoted per
 * call, the extra full collections are rare and their pauses are not what delays streams. A
 * deployment that prefers V8's own heuristics sets 0; nothing is capped either way (a heap that
 * needs more still grows). The measured trade-off is in docs/performance.md.
 *
 * The flag is read by V8 each time it sizes the heap after a collection, so setting it at start-up
 * (after the VM started) takes effect. It applies to the whole process.
 */
export function applyHeapGrowth(percent: number): void {
  const flag = heapGrowthFlag(percent, launchFlags());
  if (flag !== null) setFlagsFromString(flag);
}

/**
 * The V8 flag for a growth percent, or null: 0 leaves V8's heuristics, and a launch that already
 * names the growth (`node --heap-growing-percent=N`, or in `NODE_OPTIONS`) wins over the setting.
 */
export function heapGrowthFlag(percent: number, launch: string): string | null {
  if (percent <= 0 || /heap[-_]growing[-_]percent/.test(launch)) return null;
  return `--heap-growing-percent=${Math.round(percent)}`;
}

/** V8's own factor by which the young generation's semi-spaces grow (`--semi-space-growth-factor`). */
const V8_SEMI_SPACE_GROWTH = 2;

/** The node flags whoever launched Node gave (command line and `NODE_OPTIONS`). */
function launchFlags(): string {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
}

/** Whoever launched Node chose the young generation's sizing: leave it alone. */
function youngGenerationChosen(): boolean {
  return /semi[-_]space/.test(launchFlags());
}

let pretenuringOff = false;

/**
 * V8 counts, per allocation site, how many of its objects survive a scavenge, and once most of
 * a site's objects do, allocates that site's objects directly in the old generation. A server
 * with many calls in flight tips the sites of node:http's per-request objects (the request, the
 * response, their headers), which live exactly as long as a call: from then on every request's
 * objects are born old, die old, and until the next full collection keep the young objects they
 * point to alive. Under concurrency that turns short-lived garbage into promoted bytes, full
 * collections and a larger old generation. Without the heuristic those objects die young. A
 * launch flag that names pretenuring (e.g. `node --allocation-site-pretenuring`) wins.
 */
export function turnOffPretenuring(): void {
  if (pretenuringOff || /pretenuring/.test(launchFlags())) return;
  pretenuringOff = true;
  setFlagsFromString('--no-allocation-site-pretenuring');
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
