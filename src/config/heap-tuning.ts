import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full GC before it
 * collects again. Left to itself, V8 picks up to 4× when full collections look cheap, and a busy
 * gateway's heap then swings between ~50 MB live and ~200 MB before each collection: peak RSS
 * ~330 MB under the benchmark's load. At 50% it collects at ~1.5× the live size: peak ~200 MB, at
 * a few more (concurrent, ~10 ms) full collections a second and no measurable CPU difference.
 * Nothing is capped: a heap that really needs more memory still grows. docs/performance.md.
 *
 * The flag is read by V8 each time it sizes the heap after a collection, so setting it at start-up
 * (after the VM started) takes effect; 0 keeps V8's own heuristics.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
