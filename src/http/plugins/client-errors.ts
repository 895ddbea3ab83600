import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errors, GatewayError, renderError } from '../../errors/index.js';

function connectionError(code: string | undefined): GatewayError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return errors.timeout('Request not received in time');
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new GatewayError({ status: 431, code: 'invalid_request', message: 'Request headers too large' });
  }
  return errors.invalidRequest('Malformed HTTP request');
}

/**
 * Fastify's `clientErrorHandler`: errors Node raises on a connection before any request exists (a
 * client too slow with its headers or body, a malformed request line, oversized headers) answer
 * in the error envelope like every other error; then the connection is closed. Nothing of the
 * request is logged.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error = connectionError(err.code);
  const body = JSON.stringify(renderError(error));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
