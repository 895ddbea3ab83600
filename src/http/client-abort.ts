import type { FastifyReply } from 'fastify';

/**
 * The signal of one model call that fires when its client goes away before the answer is
 * complete. An `EventTarget` with the `AbortSignal` surface (`aborted`, `reason`, `onabort`,
 * `throwIfAborted`, `abort` events) rather than `new AbortController().signal`: in Node 20
 * constructing an AbortSignal and each add/remove of a listener on it carry GC bookkeeping that
 * costs far more than this plain EventTarget (docs/performance.md), and every model call makes
 * one and listens to it.
 *
 * It works wherever a signal is only read or listened to (`aborted`, `reason`,
 * `addEventListener('abort', …)`, `timers/promises`, undici's `signal` option). It must not be
 * given to `AbortSignal.any()`, which links real signals through Node internals and would never
 * fire for this one: make a real AbortController and abort it from an 'abort' listener instead.
 */
export class ClientAbortSignal extends EventTarget implements AbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((this: AbortSignal, ev: Event) => unknown) | null = null;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Fires once, with the reason a plain `AbortController.abort()` gives. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    const event = new Event('abort');
    this.onabort?.call(this, event);
    this.dispatchEvent(event);
  }
}

/** Aborts the call's signal when the client goes away before the answer is complete. */
export function abortOnDisconnect(reply: FastifyReply): ClientAbortSignal {
  const signal = new ClientAbortSignal();
  const raw = reply.raw;
  raw.once('close', () => {
    if (!raw.writableFinished) signal.abort();
  });
  return signal;
}
