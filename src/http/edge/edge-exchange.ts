import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyContextConfig } from 'fastify';
import type { KeyRecord } from '../../domain/keys/types.js';
import type { CallHeaderValue, CallReply, CallRequest } from '../call-exchange.js';
import { LazyRequestLogger } from '../lazy-request-logger.js';

/** A lean route as its request sees it: the route's pattern and its config (`routeOptions`). */
export interface EdgeRouteOptions {
  readonly url: string;
  readonly config: FastifyContextConfig;
}

/**
 * A model call's request on the lean edge: what `CallRequest` names, as Fastify's request gives it
 * (the id of `genReqId`, the raw method, URL and headers, the parsed body, the admitted key, and
 * the request's logger made on first use with the same bindings as Fastify's, `{ reqId }`).
 */
export class EdgeRequest implements CallRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly modelCall = true;
  readonly log: FastifyBaseLogger;
  body: unknown = undefined;

  constructor(
    readonly raw: IncomingMessage,
    readonly id: string,
    readonly routeOptions: EdgeRouteOptions,
    public principal: KeyRecord,
    appLog: FastifyBaseLogger,
  ) {
    this.method = raw.method ?? 'POST';
    this.url = raw.url ?? '';
    this.headers = raw.headers;
    // What Fastify's model-call scope makes (`lazyChildLogger`), with Fastify's bindings and options.
    this.log = new LazyRequestLogger(appLog, { reqId: id }, {});
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A model call's reply on the lean edge, with the semantics of Fastify's reply for what the sinks
 * and the error renderer use: headers collected (lower-cased names, in order) and written with
 * the status at `send`; an object sent as JSON (`JSON.stringify`, the serialisation Fastify uses
 * for these routes' answers and error envelopes) with `content-type` and `content-length`; a
 * string as text; `hijack` hands the response to the caller; `elapsedTime` from the request's
 * arrival to the answer's end.
 */
export class EdgeReply implements CallReply {
  private fields: Record<string, CallHeaderValue> = {};
  private hijacked = false;
  private endedAt: number | undefined = undefined;

  constructor(
    readonly raw: ServerResponse,
    readonly request: EdgeRequest,
    private readonly startedAt: number,
  ) {}

  get log(): FastifyBaseLogger {
    return this.request.log;
  }

  get statusCode(): number {
    return this.raw.statusCode;
  }

  get elapsedTime(): number {
    return (this.endedAt ?? performance.now()) - this.startedAt;
  }

  get sent(): boolean {
    return this.hijacked || this.raw.writableEnded;
  }

  get isHijacked(): boolean {
    return this.hijacked;
  }

  /** The answer ended (the response's 'finish' or 'error'): `elapsedTime` stops here. */
  markEnded(): void {
    this.endedAt = performance.now();
  }

  code(status: number): this {
    this.raw.statusCode = status;
    return this;
  }

  header(name: string, value: CallHeaderValue): this {
    this.fields[name.toLowerCase()] = value;
    return this;
  }

  headers(values: Readonly<Record<string, CallHeaderValue>>): this {
    for (const name of Object.keys(values)) {
      const value = values[name];
      if (value !== undefined) this.header(name, value);
    }
    return this;
  }

  hasHeader(name: string): boolean {
    return this.fields[name.toLowerCase()] !== undefined;
  }

  /** Drops the body's type and length before an error answer is rendered (as Fastify's error path does). */
  clearBodyHeaders(): void {
    delete this.fields['content-type'];
    delete this.fields['content-length'];
  }

  hijack(): this {
    this.hijacked = true;
    return this;
  }

  send(payload?: unknown): this {
    if (this.sent) {
      // Fastify's warning for a second answer (never sent by the model-call code).
      const message = `Reply was already sent, did you forget to "return reply" in "${this.request.url}" (${this.request.method})?`;
      this.log.warn({ err: new Error(message) });
      return this;
    }
    const status = this.raw.statusCode;
    if (payload === undefined || payload === null) {
      if (status >= 200 && status !== 204 && status !== 304) this.fields['content-length'] = '0';
      this.raw.writeHead(status, this.fields).end();
      return this;
    }
    let text: string;
    if (typeof payload === 'string') {
      this.fields['content-type'] ??= 'text/plain; charset=utf-8';
      text = payload;
    } else {
      this.fields['content-type'] ??= JSON_TYPE;
      text = JSON.stringify(payload);
    }
    this.fields['content-length'] = String(Buffer.byteLength(text));
    this.raw.writeHead(status, this.fields).end(text);
    return this;
  }
}
