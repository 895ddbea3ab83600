/** A source of items whose `return()` runs its cleanup (an async generator, or a hand-written relay). */
export interface ClosableIterator<T> {
  next(): Promise<IteratorResult<T, void>>;
  return(): Promise<IteratorResult<T, void>>;
}

/**
 * Pulls the first item of a stream before handing it out: errors that happen before the first
 * item reject the returned promise (so routing can still fall back), later ones are thrown by
 * the iterator. Stopping the iteration early runs the source's cleanup (aborting the upstream).
 * The iterator hands out the primed item, then calls the source directly: no extra generator
 * (one fewer promise and microtask hop per streamed chunk).
 */
export async function primeStream<T>(source: ClosableIterator<T>): Promise<AsyncIterable<T>> {
  const first = await source.next(); // rejects: the generator has already cleaned up
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<T, void, undefined> => {
      let primed: IteratorResult<T, void> | null = first;
      return {
        next: () => {
          if (primed === null) return source.next();
          const result = primed;
          primed = null;
          return Promise.resolve(result);
        },
        return: async () => {
          primed = null;
          await source.return();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
