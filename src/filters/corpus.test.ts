import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evaluateCorpus, formatScores, parseCorpus } from './evaluate.js';

// dist/src/filters/corpus.test.js → repo root → the committed JSONL.
const path = fileURLToPath(new URL('../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

test('corpus: at least 300 positive and 300 negative samples across all builtins', () => {
  const samples = parseCorpus(readFileSync(path, 'utf8'));
  assert.ok(samples.filter((s) => s.expected).length >= 300);
  assert.ok(samples.filter((s) => !s.expected).length >= 300);
  assert.equal(new Set(samples.map((s) => s.detector)).size, 8);
});

test('corpus: every detector reaches its precision and recall target', () => {
  const rows = evaluateCorpus(parseCorpus(readFileSync(path, 'utf8')));
  const failing = rows.filter((r) => !r.pass);
  assert.deepEqual(
    failing.map((r) => r.detector),
    [],
    `\n${formatScores(rows)}`,
  );
});
