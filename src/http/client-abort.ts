import type { ServerResponse } from 'node:http';

type AbortListener = ((event: Event) => unknown) | { handleEvent(event: Event): unknown };

interface Registration {
  listener: AbortListener;
  once: boolean;
}

/**
 * The signal of one model call that fires when its client goes away before the answer is
 * complete. A plain object with the `AbortSignal` surface (`aborted`, `reason`, `onabort`,
 * `throwIfAborted`, `addEventListener`/`removeEventListener`/`dispatchEvent` of 'abort') rather
 * than `new AbortController().signal` or an `EventTarget`: every model call makes one, and both
 * of those carry per-instance state (a listener map, GC bookkeeping) that this one holds only
 * once something listens. Listeners run in the order added, after `onabort`; `once` is honoured.
 *
 * It works wherever a signal is only read or listened to (`aborted`, `reason`,
 * `addEventListener('abort', …)`, `timers/promises`). It must not be given to
 * `AbortSignal.any()` or to APIs that check for a real `AbortSignal` (undici's `fetch`): make a
 * real AbortController and abort it from an 'abort' listener instead.
 */
export class ClientAbortSignal implements AbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((this: AbortSignal, ev: Event) => unknown) | null = null;
  private listeners: Registration[] | null = null;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: AbortListener | null, options?: boolean | { once?: boolean }): void {
    if (type !== 'abort' || listener === null) return;
    const list = (this.listeners ??= []);
    if (indexOf(list, listener) !== -1) return;
    list.push({ listener, once: typeof options === 'object' && options.once === true });
  }

  removeEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || listener === null || this.listeners === null) return;
    const at = indexOf(this.listeners, listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }

  dispatchEvent(event: Event): boolean {
    if (event.type !== 'abort') return true;
    this.onabort?.call(this, event);
    const list = this.listeners;
    if (list === null) return true;
    // A snapshot: listeners added while dispatching wait for the next event, as on an EventTarget.
    for (const registration of [...list]) {
      if (!list.includes(registration)) continue;
      if (registration.once) list.splice(list.indexOf(registration), 1);
      const { listener } = registration;
      if (typeof listener === 'function') listener.call(this, event);
      else listener.handleEvent(event);
    }
    return true;
  }

  /** Fires once, with the reason a plain `AbortController.abort()` gives. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    this.dispatchEvent(new Event('abort'));
  }
}

function indexOf(list: readonly Registration[], listener: AbortListener): number {
  for (let i = 0; i < list.length; i++) if (list[i]?.listener === listener) return i;
  return -1;
}

const SIGNAL = Symbol('clientAbortSignal');

type WithSignal = ServerResponse & { [SIGNAL]?: ClientAbortSignal };

/**
 * The one 'close' listener of every model call's response: a module function that finds the
 * call's signal on the response, so a call adds no closure and no `once` wrapper. 'close' comes
 * once per response; a response that finished first closes without aborting.
 */
function onResponseClose(this: WithSignal): void {
  if (!this.writableFinished) this[SIGNAL]?.abort();
}

/** Aborts the call's signal when the client goes away before the answer is complete. */
export function abortOnDisconnect(reply: { readonly raw: ServerResponse }): ClientAbortSignal {
  const signal = new ClientAbortSignal();
  const raw: WithSignal = reply.raw;
  raw[SIGNAL] = signal;
  raw.on('close', onResponseClose);
  return signal;
}
