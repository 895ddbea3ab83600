import { StringDecoder } from 'node:string_decoder';

/**
 * Incremental Server-Sent Events parser (WHATWG "event stream" interpretation): lines end in
 * LF, CR or CRLF (also when a CRLF is split across chunks), `:` lines are comments, multi-line
 * `data:` fields are joined with `\n`, a blank line dispatches. Bytes are decoded as streaming
 * UTF-8, so a multi-byte character split across chunks is safe. Each chunk is scanned once.
 */
export interface SseEvent {
  /** `event:` field; `message` when absent. */
  event: string;
  data: string;
  id: string | null;
}

export interface SseParserOptions {
  /** Upper bound on one pending line plus event data, in characters (default 1 MiB). */
  maxEventChars?: number;
  onComment?: (text: string) => void;
  /** The error thrown when an event outgrows `maxEventChars` (default SseEventTooLargeError). */
  tooLarge?: (limit: number) => Error;
  /**
   * Receives each completed event as it is dispatched (then `feed`/`finish` are the calls to
   * make: `push` and `end` return no events). No array per chunk.
   */
  onEvent?: (event: SseEvent) => void;
}

const LF = 10;
const CR = 13;

export class SseEventTooLargeError extends Error {
  constructor(limit: number) {
    super(`SSE event exceeds ${limit} characters`);
    this.name = 'SseEventTooLargeError';
  }
}

export class SseParser {
  // StringDecoder: cheaper per chunk than TextDecoder in stream mode (docs/performance.md), same
  // replacement of invalid bytes; TextDecoder's removal of a leading byte-order mark is done by hand (`bom`).
  private readonly decoder = new StringDecoder('utf8');
  private bom = true;
  private readonly maxEventChars: number;
  private readonly onComment: ((text: string) => void) | undefined;
  private readonly tooLarge: ((limit: number) => Error) | undefined;
  private readonly onEvent: ((event: SseEvent) => void) | undefined;
  private pending = '';
  /** The event's first `data` line (the usual event has one), then the rest in `moreData`. */
  private firstData: string | null = null;
  private moreData: string[] | null = null;
  private dataChars = 0;
  private eventType = '';
  private lastId: string | null = null;
  private skipLeadingLf = false;
  private atStart = true;
  private out: SseEvent[] = [];

  constructor(options: SseParserOptions = {}) {
    this.maxEventChars = options.maxEventChars ?? 1024 * 1024;
    this.onComment = options.onComment;
    this.tooLarge = options.tooLarge;
    this.onEvent = options.onEvent;
  }

  /** Feeds bytes or text; returns the events completed by this chunk. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.feed(chunk);
    return this.take();
  }

  /** Feeds bytes or text; the events it completes go to `onEvent` (else `push` returns them). */
  feed(chunk: Uint8Array | string): void {
    let text = typeof chunk === 'string' ? chunk : this.decoded(this.decoder.write(chunk));
    if (text.length === 0) return;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
    }
    this.scan(text);
  }

  /** Ends the stream: a last line without terminator and a last event without blank line count. */
  end(): SseEvent[] {
    this.finish();
    return this.take();
  }

  /** `end` for a parser with `onEvent`. */
  finish(): void {
    const rest = this.decoded(this.decoder.end());
    if (rest.length > 0) this.scan(rest);
    if (this.pending.length > 0) {
      const line = this.pending;
      this.pending = '';
      this.processLine(line);
    }
    this.dispatch();
  }

  /** The decoder's output, without the byte-order mark a UTF-8 decode drops at the very start. */
  private decoded(text: string): string {
    if (!this.bom || text.length === 0) return text;
    this.bom = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  private take(): SseEvent[] {
    if (this.out.length === 0) return [];
    const events = this.out;
    this.out = [];
    return events;
  }

  private scan(text: string): void {
    // Without a CR (the usual stream) lines are found with indexOf, natively; else char by char.
    if (text.indexOf('\r') === -1) this.scanLf(text);
    else this.scanAny(text);
  }

  private scanLf(text: string): void {
    let start = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
      if (this.pending.length === 0 && text.startsWith('data:', start)) {
        // The usual line, a whole `data:` line in this chunk: its value is sliced once.
        const from = dataValueStart(text, start, i);
        start = i + 1;
        this.addData(text.slice(from, i));
        continue;
      }
      const piece = text.slice(start, i);
      const line = this.pending.length > 0 ? this.pending + piece : piece;
      this.pending = '';
      start = i + 1;
      this.processLine(line);
    }
    this.keepRest(text, start);
  }

  private scanAny(text: string): void {
    let start = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      const piece = text.slice(start, i);
      const line = this.pending.length > 0 ? this.pending + piece : piece;
      this.pending = '';
      if (c === CR) {
        if (i + 1 < n) {
          if (text.charCodeAt(i + 1) === LF) i++;
        } else {
          this.skipLeadingLf = true;
        }
      }
      start = i + 1;
      this.processLine(line);
    }
    this.keepRest(text, start);
  }

  private keepRest(text: string, start: number): void {
    if (start < text.length) {
      this.pending += start === 0 ? text : text.slice(start);
      if (this.pending.length + this.dataChars > this.maxEventChars) this.overLimit();
    }
  }

  private processLine(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) {
      this.onComment?.(line.slice(1).trimStart());
      return;
    }
    if (line.startsWith('data:')) {
      this.addData(line.slice(dataValueStart(line, 0, line.length)));
      return;
    }
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.addData(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.lastId = value;
        break;
      default:
        break; // `retry` and unknown fields are ignored
    }
  }

  private addData(value: string): void {
    if (this.firstData === null) this.firstData = value;
    else (this.moreData ??= []).push(value);
    this.dataChars += value.length + 1;
    if (this.dataChars > this.maxEventChars) this.overLimit();
  }

  /** Drops what the oversized event holds (the parser is unusable after this) and throws. */
  private overLimit(): never {
    this.pending = '';
    this.firstData = null;
    this.moreData = null;
    this.dataChars = 0;
    throw this.tooLarge?.(this.maxEventChars) ?? new SseEventTooLargeError(this.maxEventChars);
  }

  private dispatch(): void {
    const first = this.firstData;
    if (first === null) {
      this.eventType = '';
      return;
    }
    const data = this.moreData === null ? first : first + '\n' + this.moreData.join('\n');
    const event: SseEvent = { event: this.eventType === '' ? 'message' : this.eventType, data, id: this.lastId };
    if (this.onEvent !== undefined) this.onEvent(event);
    else this.out.push(event);
    this.firstData = null;
    this.moreData = null;
    this.dataChars = 0;
    this.eventType = '';
  }
}

/** Parses an async byte/text stream into SSE events. Errors of the source propagate. */
export async function* parseSse(
  source: AsyncIterable<Uint8Array | string>,
  options: SseParserOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseParser(options);
  for await (const chunk of source) {
    for (const event of parser.push(chunk)) yield event;
  }
  for (const event of parser.end()) yield event;
}

/** Where the value of the `data:` line `text[lineStart, lineEnd)` starts: after one optional space. */
function dataValueStart(text: string, lineStart: number, lineEnd: number): number {
  const afterColon = lineStart + 5;
  return afterColon < lineEnd && text.charCodeAt(afterColon) === 32 ? afterColon + 1 : afterColon;
}
