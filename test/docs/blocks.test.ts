import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseGuide } from './blocks.js';
import { ROOT_DIR } from './guide-runner.js';

describe('doc-test block extraction', () => {
  it('takes sh and ts fences in order with their directives; other fences are not run', () => {
    const guide = parseGuide(
      [
        '# Guide',
        '<!-- doc-test: needs postgres -->',
        '<!-- doc-test: server-config examples/x.yaml -->',
        '<!-- doc-test: skip (needs Docker) -->',
        '```sh',
        'docker build .',
        '```',
        'Text.',
        '<!-- doc-test: expect /^ok$/m -->',
        '```sh',
        'echo ok',
        'echo done',
        '```',
        '```yaml',
        'a: 1',
        '```',
        '<!-- doc-test: expect /1/ -->',
        'A paragraph between a directive and its fence cancels it.',
        '```ts',
        'console.log(1);',
        '```',
      ].join('\n'),
    );
    assert.equal(guide.needsPostgres, true);
    assert.equal(guide.serverConfig, 'examples/x.yaml');
    assert.deepEqual(
      guide.blocks.map((b) => [b.language, b.line, b.skip, b.expect?.source ?? null, b.code]),
      [
        ['sh', 5, '(needs Docker)', null, 'docker build .'],
        ['sh', 10, null, '^ok$', 'echo ok\necho done'],
        ['ts', 19, null, null, 'console.log(1);'],
      ],
    );
  });

  it('refuses an unknown directive or a malformed expectation', () => {
    assert.throws(() => parseGuide('<!-- doc-test: sometimes -->'), /unknown doc-test directive/);
    assert.throws(() => parseGuide('<!-- doc-test: expect ok -->'), /expect needs \/regex\/flags/);
  });

  it('every guide has its test file, so CI runs it', () => {
    const guides = readdirSync(join(ROOT_DIR, 'docs', 'guides')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    assert.ok(guides.length >= 9);
    for (const guide of guides)
      assert.ok(
        existsSync(join(ROOT_DIR, 'test', 'docs', 'guides', guide.replace(/\.md$/, '.test.ts'))),
        `test/docs/guides/${guide.replace(/\.md$/, '.test.ts')} is missing`,
      );
  });
});
