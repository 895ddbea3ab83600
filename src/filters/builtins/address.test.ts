import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressFilter } from './address.js';

const found = (t: string): string[] => addressFilter.find(t).map((m) => t.slice(m.start, m.end));

test('address: US with unit and city/state/ZIP, UK with postcode, PO box', () => {
  assert.deepEqual(found('Ship to 500 W 2nd St, Suite 210, Austin, TX 78701.'), [
    '500 W 2nd St, Suite 210, Austin, TX 78701',
  ]);
  assert.deepEqual(found('at 221B Baker Street, London NW1 6XE'), ['221B Baker Street, London NW1 6XE']);
  assert.deepEqual(found('PO Box 1234'), ['PO Box 1234']);
});

test('address: EU forms', () => {
  assert.deepEqual(found('Hauptstraße 12, 10115 Berlin'), ['Hauptstraße 12, 10115 Berlin']);
  assert.deepEqual(found('12 rue de la Paix, 75002 Paris'), ['12 rue de la Paix, 75002 Paris']);
  assert.deepEqual(found('Via Roma 10'), ['Via Roma 10']);
  assert.deepEqual(found('Prinsengracht 263, 1016 GV Amsterdam'), ['Prinsengracht 263, 1016 GV Amsterdam']);
});

test('address: numbers before capitalised words that are not streets do not match', () => {
  for (const t of [
    'I have 3 Main concerns.',
    'Spring 2024 release',
    'Bring 5 copies',
    'the 3 Way handshake',
    'Route 66',
  ]) {
    assert.deepEqual(found(t), [], t);
  }
});
