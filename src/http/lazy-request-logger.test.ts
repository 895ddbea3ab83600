import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino, type Logger } from 'pino';
import { LazyRequestLogger } from './lazy-request-logger.js';

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'info', base: null, timestamp: false }, stream), lines };
}

test('makes its child on the first line and writes what the eager child writes', async () => {
  const { logger, lines } = capture();
  let children = 0;
  const parent = new Proxy(logger, {
    get(target, key, receiver) {
      if (key === 'child') children++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const lazy = new LazyRequestLogger(parent, { reqId: 'req_1' }, {});
  assert.equal(lazy.level, 'info');
  assert.equal(children, 0, 'no child before a line');
  lazy.info({ status: 401 }, 'model call refused');
  lazy.debug('below the level');
  lazy.error(new Error('boom'), 'failed');
  assert.equal(children, 1, 'one child for every line');
  const eager = logger.child({ reqId: 'req_1' }, {});
  eager.info({ status: 401 }, 'model call refused');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(lines.length, 3);
  assert.equal(lines[0], lines[2]);
  assert.deepEqual(JSON.parse(lines[0] ?? ''), { level: 30, reqId: 'req_1', status: 401, msg: 'model call refused' });
  assert.equal((JSON.parse(lines[1] ?? '') as { err?: { message?: string } }).err?.message, 'boom');
});

test('a level given for the route is the child level', () => {
  const { logger } = capture();
  const lazy = new LazyRequestLogger(logger, { reqId: 'req_2' }, { level: 'warn' });
  assert.equal(lazy.level, 'warn');
  lazy.level = 'error';
  assert.equal(lazy.level, 'error');
});
