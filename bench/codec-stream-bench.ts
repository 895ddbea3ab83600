/**
 * The translated streams of the codecs whose streams are rewritten event by event (Responses,
 * Messages), this build against another build's `dist/` in one process, builds alternated per
 * round: a fresh codec, its `decode` of the gateway benchmark's request for that surface, `chunk`
 * for each canonical chunk of the benchmark's streamed answer (20 events: role, 17 text deltas,
 * finish, usage) and `endStream`, written to an in-memory event writer. The chat codec writing the
 * same chunks is the reference each surface is held to ("× chat"). Both builds must write the
 * same bytes (checked first); prints µs per stream (minimum and median over rounds), own / base,
 * and each build's surface ÷ chat.
 *   node dist/bench/codec-stream-bench.js --base /path/to/other/dist [--streams 4000] [--rounds 8]
 */
import type { CanonicalChunk } from '../src/canonical/index.js';
import type { Codec, EventWriter } from '../src/wire/codec.js';
import { messagesRequestBody, responsesRequestBody, sseEvents } from './gateway-bench/payloads.js';
import { median } from './gateway-bench/stats.js';
import { vsBaseArgs } from './vs-base-args.js';

type Json = Record<string, unknown>;
interface Build {
  name: string;
  responsesCodec: () => Codec<'chat', Json>;
  messagesCodec: () => Codec<'chat', Json>;
  chatCompletionsCodec: Codec<'chat', Json>;
  chatChunk: (body: Json, fallback: { model: string; id: string; created: number }) => CanonicalChunk;
}

const values = vsBaseArgs({ streams: 4_000, rounds: 8 });

async function load(name: string, dist: string): Promise<Build> {
  const responses = (await import(`${dist}/src/wire/openai-responses/codec.js`)) as Pick<Build, 'responsesCodec'>;
  const messages = (await import(`${dist}/src/wire/anthropic-messages/inbound/codec.js`)) as Pick<
    Build,
    'messagesCodec'
  >;
  const chat = (await import(`${dist}/src/wire/openai-chat/inbound.js`)) as Pick<Build, 'chatCompletionsCodec'>;
  const response = (await import(`${dist}/src/wire/openai-chat/outbound/response.js`)) as Pick<Build, 'chatChunk'>;
  return { name, ...responses, ...messages, ...chat, ...response };
}

const ownDist = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const builds = [await load('base', values.base.replace(/\/$/, '')), await load('own', ownDist)];

/**
 * The SSE text a stream writes, kept whole: the gateway's writer joins a turn's events the same
 * way, and `res.write` flattens the joined text.
 */
class TextWriter implements EventWriter {
  text = '';
  data(payload: string): undefined {
    this.text += 'data: ' + payload + '\n\n';
  }
  event(name: string, payload: string): undefined {
    this.text += 'event: ' + name + '\ndata: ' + payload + '\n\n';
  }
  end(trailer = 'data: [DONE]\n\n'): void {
    this.text += trailer;
  }
}

const requests = {
  responses: JSON.parse(responsesRequestBody(true)) as Json,
  messages: JSON.parse(messagesRequestBody(true)) as Json,
};
const upstreamEvents = sseEvents()
  .map((event) => event.slice('data: '.length).trim())
  .filter((data) => data !== '[DONE]');
const generationId = 'gen-1764230000000-0123456789abcdef0123';
/** The benchmark's answer as the gateway hands it to a codec: canonical chunks, relabelled. */
const chunksOf = (build: Build): CanonicalChunk[] =>
  upstreamEvents.map((data) => {
    const chunk: CanonicalChunk & { provider?: string } = build.chatChunk(JSON.parse(data) as Json, {
      model: 'upstream',
      id: 'x',
      created: 1764230000,
    });
    chunk.id = generationId;
    chunk.model = 'bench/gpt-bench';
    chunk.provider = 'Bench upstream';
    return chunk;
  });

/** A stream through one codec: decoded first when the codec keeps per-call state (`request`). */
function streamThrough(codec: Codec<'chat', Json>, chunks: readonly CanonicalChunk[], request?: Json): string {
  if (request !== undefined) codec.decode({ ...request });
  const writer = new TextWriter();
  for (const chunk of chunks) void codec.chunk(writer, chunk);
  codec.endStream(writer);
  return writer.text;
}

const STREAMS: Record<string, (b: Build, chunks: readonly CanonicalChunk[]) => string> = {
  responses: (b, chunks) => streamThrough(b.responsesCodec(), chunks, requests.responses),
  messages: (b, chunks) => streamThrough(b.messagesCodec(), chunks, requests.messages),
  chat: (b, chunks) => streamThrough(b.chatCompletionsCodec, chunks),
};

const chunks = builds.map(chunksOf);
for (const [stream, run] of Object.entries(STREAMS)) {
  // `created_at` and `completed_at` are the codec's clock in seconds: compared blanked.
  const [a, b] = builds.map((build, i) =>
    run(build, chunks[i] ?? []).replace(/"(created|completed)_at":\d+/g, '"$1_at":0'),
  );
  if (a === undefined || b === undefined || a === b) continue;
  let at = 0;
  while (a[at] === b[at]) at++;
  throw new Error(
    `${stream}: the builds write different bytes from ${at}:\n${a.slice(at - 80, at + 80)}\n${b.slice(at - 80, at + 80)}`,
  );
}

let sink = 0;
const results = new Map<string, { min: number; median: number }>();
for (const [stream, run] of Object.entries(STREAMS)) {
  const times: Record<string, number[]> = { base: [], own: [] };
  for (let r = 0; r < values.rounds + 1; r++) {
    for (let k = 0; k < builds.length; k++) {
      const index = (r + k) % builds.length;
      const build = builds[index] as Build;
      const input = chunks[index] ?? [];
      const start = process.hrtime.bigint();
      // Sized as the socket write sizes it: the joined text is flattened, as it is before it leaves.
      for (let i = 0; i < values.streams; i++) sink += Buffer.byteLength(run(build, input));
      const us = Number(process.hrtime.bigint() - start) / values.streams / 1000;
      if (r > 0) times[build.name]?.push(us); // round 0 warms up
    }
  }
  for (const name of ['base', 'own']) {
    const t = times[name] ?? [];
    results.set(`${stream} ${name}`, { min: Math.min(...t), median: median(t) });
  }
  const base = results.get(`${stream} base`);
  const own = results.get(`${stream} own`);
  if (base === undefined || own === undefined) continue;
  process.stdout.write(
    `${stream.padEnd(9)} µs per stream: base min ${base.min.toFixed(1)} median ${base.median.toFixed(1)}; ` +
      `own min ${own.min.toFixed(1)} median ${own.median.toFixed(1)}; ` +
      `own/base min ${(own.min / base.min).toFixed(2)} median ${(own.median / base.median).toFixed(2)}\n`,
  );
}
for (const name of ['base', 'own']) {
  const chat = results.get(`chat ${name}`);
  for (const surface of ['responses', 'messages']) {
    const own = results.get(`${surface} ${name}`);
    if (own === undefined || chat === undefined) continue;
    process.stdout.write(
      `${name}: ${surface} ÷ chat min ${(own.min / chat.min).toFixed(2)} median ${(own.median / chat.median).toFixed(2)}\n`,
    );
  }
}
if (sink === 0) throw new Error('nothing written');
