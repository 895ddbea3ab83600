import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { loadO200kCounter } from './o200k-counter.js';

const count = loadO200kCounter();

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = [
  'the quick brown fox jumps over a lazy dog ',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  " \t\n\r\n  's 't 're 've 'm 'll 'd '",
  '.,;:!?()[]{}<>|/\\"`~@#$%^&*-_=+',
  'éèàüöñçßøåæœ ÉÀÜ',
  'привет мир Ωμέγα',
  '中文字符日本語のテキスト한국어',
  'مرحبا بالعالم עברית',
  'नमस्ते दुनिया ภาษาไทย',
  '😀👍🏽👨‍👩‍👧🚀✨🇫🇷',
  '\u0301\u0308\u200d\u00a0\u2028\ufeff',
  '\ud800\udc00\udfff\ud83d',
];

function sample(next: () => number): string {
  const length = 1 + Math.floor(next() * 120);
  let out = '';
  for (let i = 0; i < length; i++) {
    const alphabet = ALPHABETS[Math.floor(next() * ALPHABETS.length)] ?? '';
    const run = 1 + Math.floor(next() * 8);
    for (let j = 0; j < run; j++) out += alphabet[Math.floor(next() * alphabet.length)] ?? '';
  }
  return out;
}

function packageCount(text: string): number | string {
  try {
    return countTokens(text, { disallowedSpecial: new Set() });
  } catch (err) {
    return String(err);
  }
}

function ourCount(text: string): number | string {
  try {
    return count(text);
  } catch (err) {
    return String(err);
  }
}

test('o200k counter: the same counts as gpt-tokenizer on mixed scripts, emoji, lone surrogates and byte-order marks', () => {
  const next = random(25);
  for (let i = 0; i < 3000; i++) {
    const text = sample(next);
    assert.equal(ourCount(text), packageCount(text), JSON.stringify(text));
  }
});

test('o200k counter: the same counts on prose and code (the package README, line by line and whole)', () => {
  const readme = readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('gpt-tokenizer/package.json')), 'README.md'),
    'utf8',
  );
  assert.ok(readme.length > 1000);
  assert.equal(ourCount(readme), packageCount(readme));
  for (const line of readme.split('\n')) assert.equal(ourCount(line), packageCount(line), JSON.stringify(line));
});

test('o200k counter: byte-order-mark pieces behave as the package does; special tokens count as text', () => {
  for (const text of [
    '\ufeffusing System;',
    '\ufeff\ufeff',
    ' \ufeffnamespace',
    '\ufeff\n\n',
    'x\ufeff#',
    '\ufeff//',
    '\ud83d',
    'a\udc00b',
    'hello world, how are you',
    '',
  ]) {
    assert.equal(ourCount(text), packageCount(text), JSON.stringify(text));
  }
  // A prompt may contain special-token strings: counted as text, never refused.
  assert.equal(count('say <|endoftext|> now'), 9);
  assert.equal(ourCount('a <|im_start|> b <|fim_prefix|>'), packageCount('a <|im_start|> b <|fim_prefix|>'));
});

test('o200k counter: a long piece (a run of letters with no space) counts as the package does', () => {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let run = '';
  for (let i = 0; i < 6000; i++) run += letters[(i * 7919) % letters.length] ?? '';
  assert.equal(count(run), countTokens(run));
  assert.equal(count(`${run} ${run.slice(7)}1234567890`), countTokens(`${run} ${run.slice(7)}1234567890`));
});
