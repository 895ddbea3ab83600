import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classifyWord, isKnownPerson } from '../../src/filters/builtins/name-lexicon.js';
import { parseCorpus } from '../../src/filters/evaluate.js';
import { pick, rng } from '../fixtures/filter-corpus/prng.js';
import { listedWords, referenceClassifyWord, referenceIsKnownPerson } from './name-class-reference.js';

const corpusPath = fileURLToPath(new URL('../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

test('name classes: every listed word and phrase keeps its class', () => {
  const words = listedWords();
  assert.ok(words.length > 20_000);
  for (const w of words) {
    assert.equal(classifyWord(w), referenceClassifyWord(w), w);
    assert.equal(isKnownPerson(w), referenceIsKnownPerson(w), w);
  }
});

test('name classes: unlisted, hyphenated, cased and mixed-script words and pairs (seeded)', () => {
  const words = listedWords();
  const r = rng(2805);
  const odd = ['', '-', "'", '’', 'é', 'ß', 'ж', '東', '😀', 'x', '1', ' ', 'van', 'de'];
  const samples = parseCorpus(readFileSync(corpusPath, 'utf8'));
  const corpusWords = samples.flatMap((s) => s.text.toLowerCase().split(/[\s,.;:!?()"]+/));
  for (let n = 0; n < 6000; n++) {
    const a = r() < 0.5 ? pick(r, words) : pick(r, corpusWords);
    const b = r() < 0.5 ? pick(r, words) : pick(r, corpusWords);
    const glue = pick(r, ['-', '-', ' ', '', pick(r, odd)]);
    for (const w of [a, `${a}${glue}${b}`, `${pick(r, odd)}${a}`, `${a}-`, `-${a}`, a.toUpperCase()]) {
      assert.equal(classifyWord(w), referenceClassifyWord(w), w);
      assert.equal(isKnownPerson(w), referenceIsKnownPerson(w), w);
    }
    const phrase = `${a} ${b}`;
    assert.equal(isKnownPerson(phrase), referenceIsKnownPerson(phrase), phrase);
  }
});
