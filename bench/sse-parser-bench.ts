/**
 * The SSE parser over a 21-event chat stream cut into 1,000-byte chunks, this build against
 * another build's `dist/` in the same process, alternated per round: µs per stream. Both builds
 * must dispatch the same events (checked first).
 *   node dist/bench/sse-parser-bench.js --base /path/to/other/dist [--streams 20000] [--rounds 6]
 */
import { isDeepStrictEqual } from 'node:util';
import { vsBaseArgs } from './vs-base-args.js';
import { SseParser as OwnParser, type SseEvent } from '../src/upstream/framing/sse-parser.js';

const values = vsBaseArgs({ streams: 20_000, rounds: 6 });
const STREAMS = values.streams;
const ROUNDS = values.rounds;

const event = (i: number): string =>
  'data: ' +
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-bench-upstream',
    choices: [{ index: 0, delta: { content: `piece ${i} of the answer text ` }, finish_reason: null }],
  }) +
  '\n\n';
let text = '';
for (let i = 0; i < 20; i++) text += event(i);
text += 'data: [DONE]\n\n';
const body = Buffer.from(text);
const chunks: Buffer[] = [];
for (let at = 0; at < body.length; at += 1000) chunks.push(body.subarray(at, at + 1000));

type Parser = typeof OwnParser;
const base = ((await import(`${values.base}/src/upstream/framing/sse-parser.js`)) as { SseParser: Parser }).SseParser;
const builds: Array<[string, Parser]> = [
  ['base', base],
  ['this build', OwnParser],
];

function parseAll(Parser: Parser, onEvent: (e: SseEvent) => void): void {
  const parser = new Parser({ onEvent });
  for (const chunk of chunks) parser.feed(chunk);
  parser.finish();
}

const seen = builds.map(([, Parser]) => {
  const events: SseEvent[] = [];
  parseAll(Parser, (e) => events.push(e));
  return events;
});
if (!isDeepStrictEqual(seen[0], seen[1])) throw new Error('the two builds parse differently');

let chars = 0;
const count = (e: SseEvent): void => {
  chars += e.data.length;
};
for (let r = 0; r < ROUNDS; r++) {
  const line = builds.map(([name, Parser]) => {
    const start = process.hrtime.bigint();
    for (let k = 0; k < STREAMS; k++) parseAll(Parser, count);
    return `${name} ${(Number(process.hrtime.bigint() - start) / 1000 / STREAMS).toFixed(2)} µs`;
  });
  console.log(`round ${r + 1}: ${line.join(', ')} per stream`);
}
if (chars === 0) throw new Error('nothing parsed');
