/**
 * Precision/recall of every builtin detector on the labelled corpus; exits 1 below target.
 *   npx tsc -p tsconfig.json && node dist/scripts/filter-eval.js [--misses]
 * `--misses` lists the misclassified samples (corpus text is synthetic, never user data).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evaluateCorpus, formatScores, judge, parseCorpus } from '../src/filters/evaluate.js';

const path = fileURLToPath(new URL('../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));
const samples = parseCorpus(readFileSync(path, 'utf8'));
const rows = evaluateCorpus(samples);
const pos = samples.filter((s) => s.expected).length;
process.stdout.write(`corpus: ${samples.length} samples (${pos} positive, ${samples.length - pos} negative)\n\n`);
process.stdout.write(formatScores(rows) + '\n');
const holdout = samples.filter((s) => s.set === 'holdout');
if (holdout.length > 0) {
  process.stdout.write(
    `\nheld-out subset only (${holdout.length} samples written after the detectors were frozen):\n\n`,
  );
  process.stdout.write(formatScores(evaluateCorpus(holdout)) + '\n');
}
if (process.argv.includes('--misses')) {
  for (const s of samples) {
    if (!judge(s).correct)
      process.stdout.write(`${s.expected ? 'FN' : 'FP'} ${s.detector}: ${JSON.stringify(s.text)}\n`);
  }
}
const failing = rows.filter((r) => !r.pass);
if (failing.length > 0) {
  process.stdout.write(`\nbelow target: ${failing.map((r) => r.detector).join(', ')}\n`);
  process.exitCode = 1;
}
