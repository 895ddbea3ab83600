import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { anchorSpans } from '../../src/filters/builtins/address-anchor.js';
import { ADDRESS_FORMS } from '../../src/filters/builtins/address.js';
import { parseCorpus } from '../../src/filters/evaluate.js';
import { pick, rng } from '../fixtures/filter-corpus/prng.js';
import { US_TYPE_SOURCE, regexAnchorSpans } from './address-anchor-regex.js';

const corpusPath = fileURLToPath(new URL('../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

/** Every anchor word, plus near misses (prefixes, longer words, other case, other scripts). */
const WORDS = (
  'Street St Avenue Ave Av Road Rd Boulevard Blvd Lane Ln Drive Dr Court Ct Place Pl Way Terrace Ter ' +
  'Parkway Pkwy Highway Hwy Circle Cir Square Sq Trail Trl Plaza Plz Close Crescent Cres Gardens Gdns ' +
  'Grove Mews Row Walk Hill Rise Wharf Embankment Loop Alley Pike Causeway street avenue road lane ' +
  'drive boulevard straße strasse str. weg gasse platz allee damm ufer chaussee gracht straat laan plein ' +
  'kade singel steeg vej gatan vägen gränd katu tie Straße Strasse Weg Gasse Platz Allee Damm Ufer Ring ' +
  'Markt rue av. bd place chemin allée impasse quai cours route Rue Chemin Allée Impasse Quai Cours ' +
  'Route Calle C/ Avenida Avda. Paseo Carrer Via Viale Piazza Piazzale Corso Largo Rua Praça Travessa ' +
  'ul. ulica Ulica Box Code code STREET streets Str Stra Stre untie broad plane overdrive course routes ' +
  'routing Boxes codec Viable Piazzal Avd Avda ul Hauptstraße Prinsengracht Karl-Marx-Allee Bahnhofstr. ' +
  'Storgatan Mannerheimintie Ringweg Marktplatz ringen Rings FirSt Stéphane Ωmega Straßen vägens gränder ' +
  'Rué ROAD Wayne Rowan Hillary Loops Pikes St_ _St St9 9St weg9 Weg_ a.b.c Dr.Who'
).split(' ');
const GLUE = [' ', ' ', ' ', '', '', '.', ',', '-', '/', '_', '’', "'", '\n', '\t', ': ', '(', ')', '#', '\u00a0', '–'];
const OTHER = [
  '12',
  '4B',
  '742',
  '10115',
  'SW1A 1AA',
  'é',
  'ß',
  'ä',
  'ü',
  'Ж',
  'дом',
  '東京',
  '😀',
  '𝐀',
  '\u0301',
  'a\u0308',
  '\ud800',
  '\udc00',
  'ǅ',
  'İ',
  'K',
  'ſ',
  'x',
  'Q',
  'the',
  'and',
  'Main',
  'Berlin',
  'Paris',
  'n°',
  '3bis',
];

function randomText(r: () => number): string {
  let s = '';
  const parts = 1 + Math.floor(r() * 14);
  for (let i = 0; i < parts; i++) {
    s += r() < 0.6 ? pick(r, WORDS) : pick(r, OTHER);
    s += pick(r, GLUE);
  }
  return s;
}

test('address anchor: the street-type alternation of the forms is unchanged', () => {
  assert.ok(ADDRESS_FORMS[0]?.includes(US_TYPE_SOURCE));
});

test('address anchor: anchorSpans equals the regex on 4,000 seeded random texts', () => {
  const r = rng(2804);
  let withHits = 0;
  for (let n = 0; n < 4000; n++) {
    const text = randomText(r);
    const expected = regexAnchorSpans(text);
    if (expected.length > 0) withHits++;
    assert.deepEqual(anchorSpans(text), expected, JSON.stringify(text));
  }
  assert.ok(withHits > 2000); // the generator exercises matches, not only misses
});

test('address anchor: anchorSpans equals the regex on the filter corpus and its cut variants', () => {
  const samples = parseCorpus(readFileSync(corpusPath, 'utf8'));
  const r = rng(28);
  for (const { text } of samples) {
    assert.deepEqual(anchorSpans(text), regexAnchorSpans(text), JSON.stringify(text));
    // The same text cut at random points (words split at the edges) and glued to itself.
    const a = Math.floor(r() * text.length);
    const b = a + Math.floor(r() * (text.length - a + 1));
    for (const variant of [text.slice(a, b), text.slice(b) + text.slice(0, a), text.toLowerCase(), text.toUpperCase()])
      assert.deepEqual(anchorSpans(variant), regexAnchorSpans(variant), JSON.stringify(variant));
  }
});

test('address anchor: edges of the text and adjacent anchors', () => {
  for (const text of ['St', 'weg', 'Box', 'str.', 'C/', 'Piazzale', 'StSt', 'Street Street', 'la weg9', '9weg', 'x']) {
    assert.deepEqual(anchorSpans(text), regexAnchorSpans(text), text);
  }
  assert.deepEqual(anchorSpans(''), []);
});
