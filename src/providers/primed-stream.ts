/**
 * Pulls the first item of a stream before handing it out: errors that happen before the first
 * item reject the returned promise (so routing can still fall back), later ones are thrown by
 * the iterator. Stopping the iteration early runs the source's cleanup (aborting the upstream).
 */
export async function primeStream<T>(source: AsyncGenerator<T, void, undefined>): Promise<AsyncIterable<T>> {
  const first = await source.next(); // rejects: the generator has already cleaned up
  return {
    [Symbol.asyncIterator]: () => replay(first, source),
  };
}

async function* replay<T>(first: IteratorResult<T, void>, source: AsyncGenerator<T, void, undefined>): AsyncGenerator<T, void, undefined> {
  try {
    if (first.done === true) return;
    yield first.value;
    yield* source;
  } finally {
    await source.return(undefined);
  }
}
