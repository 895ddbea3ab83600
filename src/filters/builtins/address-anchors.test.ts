import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCorpus } from '../evaluate.js';
import { jsSpans } from '../windows.js';
import { compileRe2, findSpans, findSpansOfAlternation } from '../regex.js';
import { ADDRESS_FORMS, ANCHOR_REFERENCE, anchorHits } from './address.js';

const corpus = fileURLToPath(new URL('../../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

const EDGES = [
  'Wegweiser Weg 5, Ringstraße 3, Ringe, Ring 4, Markthalle Markt 1',
  'gasset gasse. platzen platz! tiet tie café 3 rue de Rivoli, Rue 5, route66 Route 66',
  'Karl-Marx-Allee 34 and Alleen; Straßenbahn Straße 9; vägenß vägen; gränd, grändé',
  'C/ Mayor 5, Avda. de la Paz 2, av. Foch, str. 12, Str. 12, ul. Marszałkowska 10',
  'postcode SW1A 1AA, Code: 123, zipcode, decode, encode, Boxer Box 12',
  'Embankment 1, Causeway Bay, St Mary St. Ave Avenue Av., Dr. Who Drive, Plaza Plazas',
  'weg\u{1D400} tie\u{1F600} platzé allee' + 'x'.repeat(5) + ' Straße\u0301',
  'Travessa do Carmo 3, Praça do Comércio, Largo do Chiado, Piazzale Roma, Viale Europa',
];

test('address anchors: the RE2 scan finds exactly what the reference JS regex finds', () => {
  const texts = [...EDGES, ...parseCorpus(readFileSync(corpus, 'utf8')).map((s) => s.text)];
  for (const text of texts) assert.deepEqual(anchorHits(text), jsSpans(ANCHOR_REFERENCE, text), text);
});

test('address anchors: long mixed text (windows of every corpus line joined)', () => {
  const all = parseCorpus(readFileSync(corpus, 'utf8'))
    .map((s) => s.text)
    .join(' ');
  assert.deepEqual(anchorHits(all), jsSpans(ANCHOR_REFERENCE, all));
});

test('address forms: one RE2 per form finds exactly what their joined alternation finds', () => {
  const joined = compileRe2(ADDRESS_FORMS.map((p) => `(?:${p})`).join('|'));
  const parts = ADDRESS_FORMS.map((p) => compileRe2(p));
  const texts = [
    ...EDGES,
    'Ship to 500 W 2nd St, Suite 210, Austin, TX 78701. Or PO Box 1234, or 12 rue de la Paix, 75002 Paris',
    'Hauptstraße 12, 10115 Berlin; Via Roma 10; Prinsengracht 263, 1016 GV Amsterdam; postcode: SW1A 1AA',
    '221B Baker Street, London NW1 6XE and 10 Downing Street 10 Downing Street',
    ...parseCorpus(readFileSync(corpus, 'utf8')).map((s) => s.text),
  ];
  for (const text of texts) assert.deepEqual(findSpansOfAlternation(parts, text), findSpans(joined, text), text);
});
