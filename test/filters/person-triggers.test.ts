import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isJsSpace, strongTriggerBefore, weakTriggerBefore } from '../../src/filters/builtins/person-triggers.js';
import { parseCorpus } from '../../src/filters/evaluate.js';
import { pick, rng } from '../fixtures/filter-corpus/prng.js';
import { referenceStrong, referenceWeak } from './person-trigger-regex.js';

const corpusPath = fileURLToPath(new URL('../../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));

function sameAtEveryPosition(text: string): void {
  for (let start = 0; start <= text.length; start++) {
    assert.equal(strongTriggerBefore(text, start), referenceStrong(text, start), `${JSON.stringify(text)} @${start}`);
    assert.equal(weakTriggerBefore(text, start), referenceWeak(text, start), `${JSON.stringify(text)} @${start}`);
  }
}

test('person triggers: isJsSpace is RegExp \\s for every UTF-16 code unit', () => {
  for (let c = 0; c < 0x10000; c++) assert.equal(isJsSpace(c), /\s/.test(String.fromCharCode(c)), c.toString(16));
});

test('person triggers: equal to the regexes at every position of 2,500 seeded texts', () => {
  const phrases = (
    "my name is|My Name Is|my name's|name:|NAME :|named|call me|signed|sincerely,|regards,|Dear|attn|attn:|" +
    'attention:|from:|cc:|CC|author:|assignee:|contact person:|hi|Hello|hey|thanks|thanks,|thank you|' +
    'Thank you,|cheers,|best,|ask|tell|ping|email|contact|thank|meet|met with|spoke with|spoke to|talk to|' +
    "this is|I'm|i am|cc|mynameis|xdear|asked|pinged|the|and|Bob|Sarah|."
  ).split('|');
  const glue = [
    ' ',
    '  ',
    '\t',
    '\n',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '\u3000',
    '\u0085',
    '\u180e',
    '',
    ',',
    '. ',
    ': ',
    '!',
  ];
  const odd = ['é', 'ß', 'İ', 'K', 'ſ', '😀', '\ud800', 'Ж', '東', '12'];
  const r = rng(2807);
  for (let n = 0; n < 2500; n++) {
    let text = '';
    const parts = 1 + Math.floor(r() * 6);
    for (let i = 0; i < parts; i++) text += (r() < 0.85 ? pick(r, phrases) : pick(r, odd)) + pick(r, glue);
    sameAtEveryPosition(text + 'Name');
  }
});

test('person triggers: equal to the regexes at every position of the filter corpus', () => {
  for (const { text } of parseCorpus(readFileSync(corpusPath, 'utf8'))) sameAtEveryPosition(text);
});
