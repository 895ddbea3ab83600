import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from '../../src/upstream/auth/node-sha256.js';
import type { CloudRequest } from './kit.js';

export interface AwsKey {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** An AWS error the way the service sends it: the type in `x-amzn-errortype`, the message in the body. */
export interface AwsRefusal {
  status: number;
  type: string;
  message: string;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/**
 * Checks a request's SigV4 signature the way AWS does: recomputes it with the Smithy signer from
 * the secret of the access key it names, over the headers it says it signed and the body as
 * received. Returns null when the signature is good, else AWS's refusal.
 */
export async function verifySigV4(
  request: CloudRequest,
  keys: readonly AwsKey[],
  expect: { service: string; region: string },
): Promise<AwsRefusal | null> {
  const authorization = one(request.headers, 'authorization');
  if (authorization === undefined)
    return { status: 403, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const m = AUTH.exec(authorization);
  if (m === null) {
    return {
      status: 403,
      type: 'IncompleteSignatureException',
      message: `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters.`,
    };
  }
  const [, accessKeyId, day, region, service, signedHeaders, signature] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const key = keys.find((k) => k.accessKeyId === accessKeyId);
  if (key === undefined)
    return {
      status: 403,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  if (service !== expect.service || region !== expect.region) {
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message: `Credential should be scoped to correct service: '${expect.service}' and region '${expect.region}'.`,
    };
  }
  const amzDate = one(request.headers, 'x-amz-date') ?? '';
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === null || !amzDate.startsWith(day)) {
    return { status: 403, type: 'IncompleteSignatureException', message: "Date must be in ISO-8601 'basic format'." };
  }
  if (Math.abs(Date.now() - signedAt.getTime()) > FIFTEEN_MINUTES) {
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message: `Signature expired: ${amzDate} is now earlier than the allowed window.`,
    };
  }
  if (key.sessionToken !== undefined && one(request.headers, 'x-amz-security-token') !== key.sessionToken) {
    return {
      status: 403,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  }
  // A declared payload hash stands in for the body in the signature, so it must be the body's.
  const declaredHash = one(request.headers, 'x-amz-content-sha256');
  if (declaredHash !== undefined && declaredHash !== createHash('sha256').update(request.raw).digest('hex')) {
    return {
      status: 400,
      type: 'XAmzContentSHA256Mismatch',
      message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
    };
  }
  const names = signedHeaders.split(';');
  if (!names.includes('host'))
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message: "'Host' must be a 'SignedHeader' in the AWS Authorization.",
    };
  const headers: Record<string, string> = {};
  for (const name of names) headers[name] = one(request.headers, name) ?? '';
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of request.query) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  const [hostname = '', port] = (headers.host ?? '').split(':');
  const signer = new SignatureV4({ service, region, credentials: key, sha256: NodeSha256, applyChecksum: false });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname,
      port: port === undefined ? undefined : Number(port),
      path: request.rawPath,
      query,
      headers,
      body: request.raw,
    },
    { signingDate: signedAt },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? ''))?.[1] ?? '';
  const good = expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
  if (!good) {
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    };
  }
  return null;
}

function one(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

function parseAmzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (m === null) return null;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
}
