import { createHash, createHmac } from 'node:crypto';
import { createScope, getCanonicalHeaders, getCanonicalQuery } from '@smithy/signature-v4';
import type { OutgoingRequest } from './types.js';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SigningScope {
  region: string;
  service: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * AWS Signature Version 4 of one request, synchronously: the canonical headers and query come
 * from Smithy's own helpers (which headers are unsignable, how the query is encoded), the hashes
 * from node:crypto, and the result is byte for byte what Smithy's (promise-based) SignatureV4
 * produces (sigv4-sign.test.ts compares them). Adds `x-amz-date`, `x-amz-content-sha256` and,
 * for temporary credentials, `x-amz-security-token`; returns those and `authorization`.
 */
export class SigV4Signer {
  private keyDate = '';
  private key: Buffer = Buffer.alloc(0);

  constructor(
    private readonly credentials: SigningCredentials,
    private readonly scope: SigningScope,
  ) {}

  sign(request: OutgoingRequest, now: Date = new Date()): Record<string, string> {
    const longDate = now
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/[-:]/g, '');
    const shortDate = longDate.slice(0, 8);
    const added: Record<string, string> = { 'x-amz-date': longDate };
    if (this.credentials.sessionToken !== undefined && this.credentials.sessionToken !== '') {
      added['x-amz-security-token'] = this.credentials.sessionToken;
    }
    const declared = request.headers['x-amz-content-sha256'];
    const payloadHash = declared ?? payloadSha256(request.body);
    if (declared === undefined) added['x-amz-content-sha256'] = payloadHash;
    const headers = { ...withoutGenerated(request.headers), host: request.url.host, ...added };
    const url = request.url;
    // The request in Smithy's shape, for its canonical-header and canonical-query helpers.
    const smithyRequest = {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      path: url.pathname,
      headers,
      query: queryOf(url),
    };
    const canonicalHeaders = getCanonicalHeaders(smithyRequest);
    const names = Object.keys(canonicalHeaders).sort();
    const signedHeaders = names.join(';');
    const canonicalRequest = [
      request.method,
      canonicalPath(url.pathname),
      getCanonicalQuery(smithyRequest),
      names.map((name) => `${name}:${canonicalHeaders[name]}`).join('\n'),
      '',
      signedHeaders,
      payloadHash,
    ].join('\n');
    const scope = createScope(shortDate, this.scope.region, this.scope.service);
    const stringToSign = `${ALGORITHM}\n${longDate}\n${scope}\n${createHash('sha256').update(canonicalRequest).digest('hex')}`;
    const signature = createHmac('sha256', this.signingKey(shortDate)).update(stringToSign).digest('hex');
    added.authorization = `${ALGORITHM} Credential=${this.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
    return added;
  }

  /** The derived key changes once a day; it is kept for the current date. */
  private signingKey(shortDate: string): Buffer {
    if (this.keyDate !== shortDate) {
      let key: Buffer = Buffer.from(`AWS4${this.credentials.secretAccessKey}`, 'utf8');
      for (const part of [shortDate, this.scope.region, this.scope.service, 'aws4_request']) {
        key = createHmac('sha256', key).update(part).digest();
      }
      this.key = key;
      this.keyDate = shortDate;
    }
    return this.key;
  }
}

function payloadSha256(body: string | Uint8Array | null): string {
  if (body === null) return EMPTY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

/** Headers a signer sets itself: a stale one from the caller would otherwise be signed. */
function withoutGenerated(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name !== 'authorization' && name !== 'x-amz-date' && name !== 'date') out[name] = value;
  }
  return out;
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const prev = query[key];
    query[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return query;
}

/** The path normalised (`.`, `..`, empty segments) and URI-escaped again, as SigV4 requires for every service but S3. */
function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const normalised = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`;
  return escapeUri(normalised).replace(/%2F/g, '/');
}

function escapeUri(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
