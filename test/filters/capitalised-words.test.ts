import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eachCapitalised } from '../../src/filters/builtins/person-name.js';
import { parseCorpus } from '../../src/filters/evaluate.js';
import { pick, rng } from '../fixtures/filter-corpus/prng.js';
import { regexCapitalised } from './capitalised-words-reference.js';

const corpusPath = fileURLToPath(new URL('../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

/** Words and pieces that exercise the walk: names, anchors, scripts, marks, surrogates, digits. */
const PIECES = [
  'Mr.',
  'Dr',
  'John',
  'O’Brien',
  "D'Angelo",
  'Jean-Luc',
  'McDonald',
  'abcDef',
  'F.',
  'J.R.R.',
  'Street',
  'St.',
  'Hauptstraße',
  'Karl-Marx-Allee',
  'rue',
  'Via',
  'Box',
  'code',
  'IBM',
  'NASA.',
  'x',
  'the',
  'and',
  '742',
  '4B',
  '10115',
  'SW1A',
  'É',
  'Élodie',
  'Ölçer',
  'Жанна',
  'дом',
  '東京',
  'Ωmega',
  'ǅemal',
  'İstanbul',
  'K',
  'ſ',
  'ß',
  'a\u0308',
  'A\u0301bc',
  '\u0301',
  '😀',
  '𝐀lpha',
  'x𝐀',
  '𝐀',
  '\ud800',
  '\udc00',
  '\ud800A',
  'A\udc00b',
  'Ab-',
  "Ab'",
  'Ab’s',
  "Ann's",
  'Ab.-',
  'Ab..',
  '-A',
  "'A",
  '_A',
  'A_b',
  'A9',
  '9A',
  'Q.E.D',
  'e.g.',
  'U.S.',
  'Straße.',
  'weg9',
  'Weg_',
  'a.b.c',
  'Dr.Who',
  'C/',
  'Avda.',
  'ul.',
  'ÀÉÎ',
  'ﬁne',
  'Ⅻ',
  'ⓐ',
  'Ａｂｃ',
  '\u00ad',
];
const GLUE = [
  ' ',
  ' ',
  ' ',
  '',
  '',
  '.',
  ',',
  '-',
  '/',
  '_',
  '’',
  "'",
  '\n',
  '\t',
  ': ',
  '(',
  ')',
  '#',
  '\u00a0',
  '–',
  '. ',
  '\u2028',
];

function randomText(r: () => number): string {
  let s = '';
  const parts = Math.floor(r() * 16);
  for (let i = 0; i < parts; i++) {
    const x = r();
    if (x < 0.03)
      s += 'A' + 'bé-’'.repeat(200 + Math.floor(r() * 400)); // a very long word
    else if (x < 0.05)
      s += String.fromCharCode(Math.floor(r() * 65536)); // any code unit
    else s += pick(r, PIECES);
    s += pick(r, GLUE);
  }
  return s;
}

function walked(text: string): number[] {
  const out: number[] = [];
  const count = eachCapitalised(text, (_, start, end, index) => {
    assert.equal(index, out.length / 2);
    out.push(start, end);
  });
  assert.equal(count, out.length / 2);
  return out;
}

function same(text: string): void {
  assert.deepEqual(walked(text), regexCapitalised(text), JSON.stringify(text));
}

test('capitalised words: equal the old regex walk on 3,000 seeded random texts', () => {
  const r = rng(2905);
  let withWords = 0;
  for (let n = 0; n < 3000; n++) {
    const text = randomText(r);
    same(text);
    if (regexCapitalised(text).length > 0) withWords++;
  }
  assert.ok(withWords > 2000); // the generator exercises words, not only empty results
});

test('capitalised words: equal on the filter corpus and its cut, rotated and re-cased variants', () => {
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

test('capitalised words: edges of the text', () => {
  for (const text of [
    '',
    'A',
    'a',
    '.',
    'A.',
    'Ab',
    'St',
    '𝐀',
    '\ud835',
    '\udc00',
    'x\ud835',
    '\ud835\udc00A',
    'a𝐀.',
    'É',
    'aÉ',
    'A.B.',
  ])
    same(text);
  assert.deepEqual(walked(''), []);
  assert.deepEqual(walked('a 𝐀b.c Dé'), [2, 6, 8, 10]); // an astral capital is two code units
});
