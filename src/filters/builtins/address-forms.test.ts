import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCorpus } from '../evaluate.js';
import { compileRe2, findSpans, findSpansOfAlternation } from '../regex.js';
import { ADDRESS_FORMS } from './address.js';

const corpus = fileURLToPath(new URL('../../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

const TEXTS = [
  'Ship to 500 W 2nd St, Suite 210, Austin, TX 78701. Or PO Box 1234, or 12 rue de la Paix, 75002 Paris',
  'Hauptstraße 12, 10115 Berlin; Via Roma 10; Prinsengracht 263, 1016 GV Amsterdam; postcode: SW1A 1AA',
  '221B Baker Street, London NW1 6XE and 10 Downing Street 10 Downing Street',
  'C/ Mayor 5, Avda. de la Paz 2, av. Foch 3, Karl-Marx-Allee 34, ul. Marszałkowska 10, Flat 3, 12 High Road',
  'Travessa do Carmo 3, Praça do Comércio 1, Largo do Chiado 5, Piazzale Roma 10, Viale Europa 22, 1100-053 Lisboa',
  '',
];

test('address forms: one RE2 per form finds exactly what their joined alternation finds', () => {
  const joined = compileRe2(ADDRESS_FORMS.map((p) => `(?:${p})`).join('|'));
  const parts = ADDRESS_FORMS.map((p) => compileRe2(p));
  const samples = parseCorpus(readFileSync(corpus, 'utf8')).map((s) => s.text);
  for (const text of [...TEXTS, ...samples, samples.join(' ')]) {
    assert.deepEqual(findSpansOfAlternation(parts, text), findSpans(joined, text), text.slice(0, 200));
  }
});

test('findSpansOfAlternation: leftmost wins, then the first alternative at that position, empty matches skipped', () => {
  const parts = ['abc', 'ab', 'bcd', 'x*'].map((p) => compileRe2(p));
  const joined = compileRe2('(?:abc)|(?:ab)|(?:bcd)|(?:x*)');
  for (const text of ['abcd', 'zabcdxxab', 'bcdabc', 'xxx', '']) {
    assert.deepEqual(findSpansOfAlternation(parts, text), findSpans(joined, text), text);
  }
});
