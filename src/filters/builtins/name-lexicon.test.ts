import { test } from 'node:test';
import assert from 'node:assert/strict';
import nlp from 'compromise';
import { compromiseLexicon, lexiconClasses, LEX_CLASSES } from './name-lexicon-classes.js';
import { LEXICON_DATA } from './name-lexicon-data.js';
import { classifyWord, isKnownPerson } from './name-lexicon.js';

test('name lexicon snapshot equals the installed compromise (else regenerate with name-lexicon-gen.js)', () => {
  const live = lexiconClasses(compromiseLexicon(nlp.model()));
  for (const cls of LEX_CLASSES) {
    const snapshot = LEXICON_DATA[cls].split(/[|\n]/).filter((w) => w !== '');
    assert.deepEqual(snapshot, live[cls], `class ${cls}`);
  }
});

test('name lexicon: classes as the detector reads them', () => {
  assert.equal(classifyWord('john'), 'first');
  assert.equal(classifyWord('smith'), 'last');
  assert.equal(classifyWord('will'), 'ambiguous');
  assert.equal(classifyWord('priya'), 'first');
  assert.equal(classifyWord('xqzzy'), 'unknown');
  assert.equal(classifyWord('john-xqzzy'), 'first');
  assert.equal(isKnownPerson('bill gates'), true);
  assert.equal(isKnownPerson('table chair'), false);
});
