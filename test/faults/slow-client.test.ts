import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';

/** Sends `head` and never finishes the request; resolves with what the server answered until it closed. */
function stall(server: TestServer, head: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('slow clients', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      dialect: 'sqlite',
      env: { SWITCHYARD_HEADERS_TIMEOUT_MS: '1000', SWITCHYARD_REQUEST_TIMEOUT_MS: '2000' },
    });
  });
  after(() => server.close());

  it('headers not finished in time: 408 in the error envelope, connection closed', { timeout: 20_000 }, async () => {
    const answer = await stall(server, 'POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    assert.match(answer, /^HTTP\/1\.1 408 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
      error: { code: number; message: string };
    };
    assert.equal(body.error.code, 408);
  });

  // Auth answers 401 before the body is read; the unfinished body then still ends the connection with 408.
  it('a body not finished in time: 408 as well, and the connection closes', { timeout: 20_000 }, async () => {
    const answer = await stall(
      server,
      'POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":',
    );
    assert.match(answer, /HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*"code":408/);
  });
});
