import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TextView, wordPass } from '../../src/filters/word-pass.js';
import { personNameFilter } from '../../src/filters/builtins/person-name.js';
import { loadNameLexicon } from '../../src/filters/builtins/name-lexicon.js';
import { parseCorpus } from '../../src/filters/evaluate.js';
import { pick, rng } from '../fixtures/filter-corpus/prng.js';
import { loopBounds, regexCaps } from './word-pass-reference.js';

const corpusPath = fileURLToPath(new URL('../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

/** Words and pieces that exercise both walks: names, anchors, scripts, marks, surrogates, digits. */
const PIECES = [
  'Mr.', 'Dr', 'John', 'O’Brien', "D'Angelo", 'Jean-Luc', 'McDonald', 'abcDef', 'F.', 'J.R.R.', 'Street', 'St.',
  'Hauptstraße', 'Karl-Marx-Allee', 'rue', 'Via', 'Box', 'code', 'IBM', 'NASA.', 'x', 'the', 'and', '742', '4B',
  '10115', 'SW1A', 'É', 'Élodie', 'Ölçer', 'Жанна', 'дом', '東京', 'Ωmega', 'ǅemal', 'İstanbul', 'K', 'ſ',
  'ß', 'a\u0308', 'A\u0301bc', '\u0301', '😀', '𝐀lpha', 'x𝐀', '𝐀', '\ud800', '\udc00', '\ud800A', 'A\udc00b',
  'Ab-', "Ab'", 'Ab’s', "Ann's", 'Ab.-', 'Ab..', '-A', "'A", '_A', 'A_b', 'A9', '9A', 'Q.E.D', 'e.g.', 'U.S.',
  'Straße.', 'weg9', 'Weg_', 'a.b.c', 'Dr.Who', 'C/', 'Avda.', 'ul.', 'ÀÉÎ', 'ﬁne', 'Ⅻ', 'ⓐ', 'Ａｂｃ', '\u00ad',
];
const GLUE = [' ', ' ', ' ', '', '', '.', ',', '-', '/', '_', '’', "'", '\n', '\t', ': ', '(', ')', '#', '\u00a0', '–', '. ', '\u2028'];

function randomText(r: () => number): string {
  let s = '';
  const parts = Math.floor(r() * 16);
  for (let i = 0; i < parts; i++) {
    const x = r();
    if (x < 0.03) s += 'A' + 'bé-’'.repeat(200 + Math.floor(r() * 400)); // a very long word
    else if (x < 0.05) s += String.fromCharCode(Math.floor(r() * 65536)); // any code unit
    else s += pick(r, PIECES);
    s += pick(r, GLUE);
  }
  return s;
}

function same(text: string): void {
  const words = wordPass(text);
  assert.deepEqual(words.caps, regexCaps(text), JSON.stringify(text));
  assert.deepEqual(words.bounds, loopBounds(text), JSON.stringify(text));
}

test('word pass: capitalised words and word bounds equal the old walks on 3,000 seeded random texts', () => {
  const r = rng(2905);
  let withCaps = 0;
  let withBounds = 0;
  for (let n = 0; n < 3000; n++) {
    const text = randomText(r);
    same(text);
    if (regexCaps(text).length > 0) withCaps++;
    if (loopBounds(text).length > 0) withBounds++;
  }
  // The generator exercises words of both kinds, not only empty results.
  assert.ok(withCaps > 2000);
  assert.ok(withBounds > 2000);
});

test('word pass: equal on the filter corpus and its cut, rotated and re-cased variants', () => {
  const samples = parseCorpus(readFileSync(corpusPath, 'utf8'));
  assert.ok(samples.length > 500);
  const r = rng(29);
  for (const { text } of samples) {
    same(text);
    const a = Math.floor(r() * text.length);
    const b = a + Math.floor(r() * (text.length - a + 1));
    for (const variant of [text.slice(a, b), text.slice(b) + text.slice(0, a), text.toLowerCase(), text.toUpperCase()])
      same(variant);
  }
});

test('word pass: edges of the text', () => {
  for (const text of ['', 'A', 'a', '.', 'A.', 'Ab', 'St', '𝐀', '\ud835', '\udc00', 'x\ud835', '9', '_', 'é', 'Aé', 'a.']) same(text);
  assert.deepEqual(wordPass(''), { caps: [], bounds: [] });
});

test('word pass: the view reads a text once and the person-name detector finds the same with or without it', () => {
  loadNameLexicon();
  const view = new TextView('Dear Ann Smith, see Dr. Patel at 12 Main Street.');
  assert.equal(view.words(), view.words());
  assert.ok(view.atLeast(2));
  const r = rng(2906);
  for (let n = 0; n < 300; n++) {
    const text = randomText(r);
    assert.deepEqual(personNameFilter.find(text, new TextView(text)), personNameFilter.find(text), JSON.stringify(text));
  }
});
