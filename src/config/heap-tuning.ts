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
