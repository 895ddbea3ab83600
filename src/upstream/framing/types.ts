/** Turns an upstream body's bytes into whole events; the decoder is per response. */
export interface Framing<E> {
  readonly contentType: string; // what the upstream answers with, e.g. 'text/event-stream'
  decode(body: AsyncIterable<Uint8Array>, limits: { maxEventBytes: number }): AsyncIterable<E>;
}
