import { createServer, type Server } from 'node:http';
import { once } from 'node:events';

/** An exported span, flattened from OTLP/JSON (ids as lower-case hex, attributes as plain values). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  /** OTLP enum: 2 SERVER, 3 CLIENT. */
  kind: number;
  /** OTLP enum: 0 UNSET, 1 OK, 2 ERROR. */
  status: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

/** An in-process OTLP/HTTP collector on 127.0.0.1: keeps every body posted to /v1/traces. */
export interface OtlpReceiver {
  /** The traces URL, for OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  url: string;
  /** Every request body as received (to search for text that must never be exported). */
  readonly bodies: string[];
  /** Content types of the posts. */
  readonly contentTypes: string[];
  spans(): ReceivedSpan[];
  /** Resolves with the spans once `ready(spans)` holds; rejects after `timeoutMs`. */
  waitFor(ready: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes?: OtlpAttribute[];
};
type OtlpBody = {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
};

function valueOf(v: OtlpValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributes(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

/** OTLP/JSON ids are hex; an exporter writing base64 would be decoded here too. */
function hex(id: string | undefined): string {
  if (id === undefined || id === '') return '';
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        contentTypes.push(req.headers['content-type'] ?? '');
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const spans = (): ReceivedSpan[] =>
    bodies.flatMap((text) =>
      ((JSON.parse(text) as OtlpBody).resourceSpans ?? []).flatMap((rs) =>
        (rs.scopeSpans ?? []).flatMap((ss) =>
          (ss.spans ?? []).map((s) => ({
            traceId: hex(s.traceId),
            spanId: hex(s.spanId),
            parentSpanId: hex(s.parentSpanId),
            traceState: s.traceState ?? '',
            name: s.name,
            kind: s.kind,
            status: s.status?.code ?? 0,
            attributes: attributes(s.attributes),
            resource: attributes(rs.resource?.attributes),
          })),
        ),
      ),
    );
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    bodies,
    contentTypes,
    spans,
    waitFor: async (ready, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const all = spans();
        if (ready(all)) return all;
        if (Date.now() > deadline) throw new Error(`spans not received in time; got ${all.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
