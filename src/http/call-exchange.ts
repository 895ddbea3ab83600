import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyContextConfig } from 'fastify';
import type { KeyRecord } from '../domain/keys/types.js';

/**
 * What the model-call code (serveModelCall, the sinks, the error renderer, the refusal record and
 * the call's log line) reads of a request. Fastify's request satisfies it, and so does the lean
 * model-call edge's (src/http/edge), so both edges run the very same code past their own.
 */
export interface CallRequest {
  readonly id: string;
  readonly method: string;
  /** The request's URL as it came (path and query). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  body: unknown;
  /** The key that authenticated the request (null until then). */
  principal: KeyRecord;
  /** True on the model-call routes. */
  readonly modelCall?: boolean;
  readonly log: FastifyBaseLogger;
  /** The matched route's pattern and config; absent fields when no route matched. */
  readonly routeOptions: { readonly url?: string | undefined; readonly config?: FastifyContextConfig };
}

/** Header values a reply takes. */
export type CallHeaderValue = string | number | string[];

/** What the model-call code does with a reply (Fastify's reply satisfies it). */
export interface CallReply {
  readonly raw: ServerResponse;
  readonly request: CallRequest;
  readonly log: FastifyBaseLogger;
  readonly statusCode: number;
  /** Milliseconds since the request arrived (to its answer's end, once ended). */
  readonly elapsedTime: number;
  /** The answer has ended or the reply was taken over (`hijack`). */
  readonly sent: boolean;
  code(status: number): CallReply;
  header(name: string, value: CallHeaderValue): CallReply;
  headers(values: Readonly<Record<string, CallHeaderValue>>): CallReply;
  hasHeader(name: string): boolean;
  /** Serialises a value as JSON (or sends a string as it is) with its content type and length. */
  send(payload?: unknown): CallReply;
  /** The caller writes on `raw` from now on. */
  hijack(): CallReply;
}
