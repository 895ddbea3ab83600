// Token estimates: the compact o200k_base counter (src/canonical/o200k-counter.ts) against
// gpt-tokenizer's own `countTokens`, in one process: load time and resident memory of each (each
// loaded once, in that order, after a full collection), then CPU per text, alternating per round,
// on the same texts; the figure is the minimum over rounds (a busy machine only ever adds time).
//
//   npx tsc -p tsconfig.json && node --expose-gc dist/bench/tokenizer-bench.js [--rounds 6] [--texts 400]
//
// Texts: `repeated` is one 2.6 KB paragraph counted again and again (the package's merge cache
// then answers most pieces); `varied` are prose, code and mixed-script texts of 0.2–4 KB that
// differ from each other (what a gateway's prompts and answers look like).
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { loadO200kCounter } from '../src/canonical/o200k-counter.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '6' }, texts: { type: 'string', default: '400' } },
});
const ROUNDS = Number(values.rounds);
const TEXTS = Number(values.texts);

type Count = (text: string) => number;

function settle(): NodeJS.MemoryUsage {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
  return process.memoryUsage();
}

function load(name: string, make: () => Count): Count {
  const before = settle();
  const started = performance.now();
  const count = make();
  count('warm the tables up');
  const ms = performance.now() - started;
  const after = settle();
  const mb = (n: number) => (n / 1048576).toFixed(1);
  process.stdout.write(
    `${name}: load ${ms.toFixed(0)} ms, + RSS ${mb(after.rss - before.rss)} MB, + heap ${mb(after.heapUsed - before.heapUsed)} MB, + array buffers ${mb(after.arrayBuffers - before.arrayBuffers)} MB\n`,
  );
  return count;
}

const ours = load('compact counter', loadO200kCounter);
const pkg = load('gpt-tokenizer', () => {
  const mod = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Count };
  return mod.countTokens;
});

const WORDS = [
  'the',
  'gateway',
  'routes',
  'each',
  'request',
  'to',
  'an',
  'upstream',
  'Überweisung',
  'naïve',
  'función',
  'данные',
  '数据',
  'モデル',
  '😀',
  'const x = await fetch(url);',
  '{"role":"user"}',
  '\n\n',
  '  ',
  '1234567',
];

function varied(seed: number): string {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  const words = 40 + (next() % 600);
  let out = '';
  for (let i = 0; i < words; i++)
    out += `${WORDS[next() % WORDS.length] ?? ''}${next() % 7 === 0 ? String(next() % 997) : ''} `;
  return out;
}

const SETS: Record<string, string[]> = {
  repeated: Array.from({ length: TEXTS }, () =>
    'The quick brown fox jumps over the lazy dog. Ünïcödé 中文 😀 '.repeat(40),
  ),
  varied: Array.from({ length: TEXTS }, (_, i) => varied(i + 1)),
};

for (const [set, texts] of Object.entries(SETS)) {
  const chars = texts.reduce((n, t) => n + t.length, 0) / texts.length;
  const best = { ours: Infinity, pkg: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, count] of round % 2 === 0
      ? ([
          ['ours', ours],
          ['pkg', pkg],
        ] as const)
      : ([
          ['pkg', pkg],
          ['ours', ours],
        ] as const)) {
      const started = process.cpuUsage();
      let total = 0;
      for (const text of texts) total += count(text);
      const cpu = process.cpuUsage(started);
      if (total <= 0) throw new Error('no tokens counted');
      best[name] = Math.min(best[name], (cpu.user + cpu.system) / texts.length);
    }
  }
  const same = texts.every((t) => ours(t) === pkg(t));
  process.stdout.write(
    `${set} (${texts.length} texts, ${chars.toFixed(0)} chars each): compact ${best.ours.toFixed(1)} µs, gpt-tokenizer ${best.pkg.toFixed(1)} µs per text (ratio ${(best.ours / best.pkg).toFixed(2)}); same counts: ${same}\n`,
  );
}
