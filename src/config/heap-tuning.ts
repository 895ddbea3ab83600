import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full GC before it
 * collects again. Left to itself (the default, 0), V8 picks up to 4× when full collections look
 * cheap: a busy gateway's heap then swings between ~50 MB live and ~200 MB, peak RSS ~260–350 MB
 * under the benchmark's load. At 50% it collects at ~1.5× the live size: peak ~200 MB, but four to
 * five times as many full collections, whose main-thread steps (up to ~30–60 ms on one core)
 * delay every stream in flight: 512 paced streams saw ~1,100 gaps over 100 ms against none with
 * V8's heuristics. A deployment short of memory rather than latency can set it; nothing is
 * capped either way (a heap that needs more still grows). docs/performance.md.
 *
 * The flag is read by V8 each time it sizes the heap after a collection, so setting it at start-up
 * (after the VM started) takes effect.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
