/**
 * The upstream stream readers, this build against another build's `dist/` in one process, builds
 * alternated per round: the canonical chunks of the gateway benchmark's streamed answer read from
 * an upstream body, as the gateway's stream loop reads them (`for await` over the primed stream),
 * from seven readers: an OpenAI chat stream (`OpenAiCompatibleAdapter`'s relay: role, 17 deltas,
 * finish, usage, `[DONE]`), the same answer in Anthropic's Messages events read natively
 * (`nativeChunks`, a Messages client's pass-through) and translated to chat (`anthropicChunks`),
 * in OpenAI's Responses events read natively (`nativeResponseChunks`), and in Gemini's
 * `streamGenerateContent` events (`geminiChunks`), and Bedrock's event streams: ConverseStream
 * (`converseChunks`) and Claude's events in InvokeModelWithResponseStream (`invokeAnthropicChunks`).
 * The body comes in one piece, as the benchmark's upstream writes it, or one event per piece, as a
 * paced upstream writes it. Both builds must read the same chunks (checked first); prints µs per
 * stream (minimum and median over rounds) and own / base.
 *   node dist/bench/stream-reader-bench.js --base /path/to/other/dist [--streams 4000] [--rounds 8]
 */
import type { CanonicalChunk } from '../src/canonical/index.js';
import type { EventPacedBody, UpstreamSseParser } from '../src/upstream/index.js';
import { anthropicSseEvents, sseEvents } from './gateway-bench/payloads.js';
import { responsesSseEvents } from './gateway-bench/responses-payloads.js';
import { geminiSseEvents } from './gateway-bench/payloads-gemini.js';
import { converseStreamFrames, invokeStreamFrames } from './gateway-bench/bedrock-payloads.js';
import { median } from './gateway-bench/stats.js';
import { vsBaseArgs } from './vs-base-args.js';

type Json = Record<string, unknown>;
interface Source {
  chunks(): AsyncIterable<Buffer>;
  sseParser(): UpstreamSseParser;
  awsEventParser?(): unknown;
}
/** A native reader's signature: the body, and who the stream is from. */
type NativeReader = (
  res: Source,
  providerId: string,
  apiKey: string | null,
  model: string,
) => AsyncIterator<CanonicalChunk>;
interface Build {
  name: string;
  UpstreamSseParser: new (body: EventPacedBody, providerId: string, maxEventBytes: number) => UpstreamSseParser;
  nativeChunks: NativeReader;
  anthropicChunks: (res: Source, opts: Json) => AsyncIterator<CanonicalChunk>;
  nativeResponseChunks: NativeReader;
  geminiChunks: (res: Source, opts: Json) => AsyncIterator<CanonicalChunk>;
  relayOpenAiStream: (options: Json) => AsyncIterator<CanonicalChunk>;
  chatChunk: (body: Json, fallback: { model: string; id: string; created: number }) => CanonicalChunk;
  primeStream: (source: AsyncIterator<CanonicalChunk>) => Promise<AsyncIterable<CanonicalChunk>>;
  converseChunks: (input: unknown, opts: Json) => AsyncIterator<CanonicalChunk>;
  invokeAnthropicChunks: (input: unknown, opts: Json) => AsyncIterator<CanonicalChunk>;
  /** A build whose Bedrock readers take the body (this round on): its event-stream parser. */
  UpstreamAwsEventParser?: new (body: EventPacedBody, providerId: string, maxEventBytes: number) => unknown;
  /** A build whose Bedrock readers take decoded messages (before this round): the decoder over the body. */
  bedrockMessages?: (res: Source, providerId: string) => AsyncIterable<unknown>;
}

const values = vsBaseArgs({ streams: 4_000, rounds: 8 });

async function load(name: string, dist: string): Promise<Build> {
  const parts = await Promise.all([
    import(`${dist}/src/upstream/framing/sse-body.js`),
    import(`${dist}/src/wire/anthropic-messages/outbound/native.js`),
    import(`${dist}/src/wire/anthropic-messages/outbound/stream.js`),
    import(`${dist}/src/wire/openai-responses/outbound/stream.js`),
    import(`${dist}/src/wire/gemini-generate/stream.js`),
    import(`${dist}/src/wire/openai-chat/outbound/stream-relay.js`),
    import(`${dist}/src/wire/openai-chat/outbound/response.js`),
    import(`${dist}/src/wire/primed-stream.js`),
    import(`${dist}/src/wire/bedrock-converse/stream.js`),
    import(`${dist}/src/wire/bedrock-invoke/anthropic.js`),
    import(`${dist}/src/upstream/framing/aws-eventstream.js`),
    import(`${dist}/src/providers/bedrock/event-stream.js`).catch(() => ({})),
  ]);
  return Object.assign({ name }, ...parts) as Build;
}

const ownDist = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const builds = [await load('base', values.base.replace(/\/$/, '')), await load('own', ownDist)];

const PACED_BODY: EventPacedBody = { progress: () => undefined, abortWith: () => undefined };
const MAX_EVENT_BYTES = 1 << 20;

/** An upstream body of these SSE events, in one piece or one piece per event. */
function source(build: Build, pieces: readonly Buffer[]): Source {
  const res: Source = {
    chunks: async function* () {
      for (const piece of pieces) yield piece;
    },
    sseParser: () => new build.UpstreamSseParser(PACED_BODY, 'bench', MAX_EVENT_BYTES),
  };
  const AwsParser = build.UpstreamAwsEventParser;
  if (AwsParser !== undefined) res.awsEventParser = () => new AwsParser(PACED_BODY, 'bench', MAX_EVENT_BYTES);
  return res;
}

/** What a build's Bedrock reader reads: the body itself, or (an older build) its decoded messages. */
function bedrockInput(build: Build, pieces: readonly Buffer[]): unknown {
  const res = source(build, pieces);
  return build.bedrockMessages === undefined ? res : build.bedrockMessages(res, 'bench');
}

const endpoint = { providerId: 'bench', apiKey: null };
const READERS: Record<string, (b: Build, pieces: readonly Buffer[]) => AsyncIterator<CanonicalChunk>> = {
  openai: (b, pieces) =>
    b.relayOpenAiStream({
      res: source(b, pieces),
      endpoint,
      meta: { id: 'gen-x', model: 'bench/gpt-bench', created: 1764230000 },
      step: (event: Json, meta: { id: string; model: string; created: number }) => {
        const chunk = b.chatChunk(event, meta);
        const usage = chunk.usage ?? null;
        delete chunk.usage;
        return { chunk: chunk.choices.length === 0 ? null : chunk, usage, finished: false };
      },
      last: (meta: { id: string; model: string; created: number }) => ({ ...meta, choices: [] }),
    }),
  'anthropic native': (b, pieces) => b.nativeChunks(source(b, pieces), 'bench', null, 'claude-bench'),
  'anthropic chat': (b, pieces) =>
    b.anthropicChunks(source(b, pieces), {
      providerId: 'bench',
      apiKey: null,
      fallbackId: 'gen-x',
      model: 'claude-bench',
    }),
  'responses native': (b, pieces) => b.nativeResponseChunks(source(b, pieces), 'bench', null, 'gpt-bench'),
  gemini: (b, pieces) =>
    b.geminiChunks(source(b, pieces), {
      providerId: 'bench',
      apiKey: null,
      fallbackId: 'gen-x',
      model: 'gemini-bench',
    }),
  'bedrock converse': (b, pieces) =>
    b.converseChunks(bedrockInput(b, pieces), { providerId: 'bench', apiKey: null, id: 'gen-x', model: 'nova-bench' }),
  'bedrock invoke': (b, pieces) =>
    b.invokeAnthropicChunks(bedrockInput(b, pieces), { providerId: 'bench', apiKey: null, model: 'claude-bench' }),
};

const BODIES: Record<string, (string | Buffer)[]> = {
  openai: sseEvents(),
  'anthropic native': anthropicSseEvents(),
  'anthropic chat': anthropicSseEvents(),
  'responses native': responsesSseEvents(),
  gemini: geminiSseEvents(),
  'bedrock converse': converseStreamFrames(),
  'bedrock invoke': invokeStreamFrames(),
};
const SHAPES: Record<string, (events: (string | Buffer)[]) => Buffer[]> = {
  whole: (events) => [Buffer.concat(events.map((e) => Buffer.from(e)))],
  paced: (events) => events.map((e) => Buffer.from(e)),
};

/** Reads one stream to its end as the gateway does; returns what it read, for the check and the sink. */
async function readStream(build: Build, reader: string, pieces: readonly Buffer[]): Promise<string> {
  const read = READERS[reader];
  if (read === undefined) throw new Error(reader);
  const stream = await build.primeStream(read(build, pieces));
  let out = '';
  for await (const chunk of stream)
    out += `${chunk.choices[0]?.delta.content ?? ''}|${chunk.usage?.total_tokens ?? ''};`;
  return out;
}

const cases = Object.keys(READERS).flatMap((reader) =>
  Object.entries(SHAPES).map(([shape, cut]) => ({ reader, shape, pieces: cut(BODIES[reader] ?? []) })),
);
for (const c of cases) {
  const [a, b] = await Promise.all(builds.map((build) => readStream(build, c.reader, c.pieces)));
  if (a !== b || a === undefined || a === '')
    throw new Error(`${c.reader} ${c.shape}: the builds read different chunks`);
}

let sink = 0;
for (const c of cases) {
  const times: Record<string, number[]> = { base: [], own: [] };
  for (let r = 0; r < values.rounds + 1; r++) {
    for (let k = 0; k < builds.length; k++) {
      const build = builds[(r + k) % builds.length] as Build;
      const start = process.hrtime.bigint();
      for (let i = 0; i < values.streams; i++) sink += (await readStream(build, c.reader, c.pieces)).length;
      const us = Number(process.hrtime.bigint() - start) / values.streams / 1000;
      if (r > 0) times[build.name]?.push(us); // round 0 warms up
    }
  }
  const [base, own] = [times.base ?? [], times.own ?? []].map((t) => ({ min: Math.min(...t), median: median(t) }));
  if (base === undefined || own === undefined) continue;
  process.stdout.write(
    `${`${c.reader} ${c.shape}`.padEnd(24)} µs per stream: base min ${base.min.toFixed(1)} median ${base.median.toFixed(1)}; ` +
      `own min ${own.min.toFixed(1)} median ${own.median.toFixed(1)}; ` +
      `own/base min ${(own.min / base.min).toFixed(2)} median ${(own.median / base.median).toFixed(2)}\n`,
  );
}
if (sink === 0) throw new Error('nothing read');
