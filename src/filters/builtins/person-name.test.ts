import { test } from 'node:test';
import assert from 'node:assert/strict';
import { personNameFilter } from './person-name.js';

const found = (t: string): string[] => personNameFilter.find(t).map((m) => t.slice(m.start, m.end));

test('person-name: first + last, titles, triggers and sign-offs', () => {
  assert.deepEqual(found('Please forward it to Sarah Johnson by Friday.'), ['Sarah Johnson']);
  assert.deepEqual(found('Dr. Patel and Mrs Jane Doe agreed.'), ['Dr. Patel', 'Mrs Jane Doe']);
  assert.deepEqual(found('My name is Olumide.'), ['Olumide']);
  assert.deepEqual(found('Best regards,\nTomasz Kowalski'), ['Tomasz Kowalski']);
  assert.deepEqual(found('Will Smith and Bill Gates'), ['Will Smith', 'Bill Gates']);
});

test('person-name: common words that are also first names do not match', () => {
  for (const t of [
    'I will bill you in May.',
    'Will you grant access?',
    'May I ask?',
    'Mark the checkbox.',
    'Bill the client.',
    'The Apple Watch is out.',
    'Hope you are well.',
  ]) {
    assert.deepEqual(found(t), [], t);
  }
});
