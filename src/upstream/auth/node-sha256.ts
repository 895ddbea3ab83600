import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type SourceData = string | ArrayBuffer | ArrayBufferView;

function toBytes(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/**
 * SHA-256 (or HMAC-SHA-256 when given a secret) on node:crypto, in the shape the Smithy SigV4
 * signer takes as its `sha256` constructor.
 */
export class NodeSha256 {
  private readonly secret: Buffer | null;
  private hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.secret = secret === undefined ? null : toBytes(secret);
    this.hash = this.fresh();
  }

  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }

  reset(): void {
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    return this.secret === null ? createHash('sha256') : createHmac('sha256', this.secret);
  }
}
