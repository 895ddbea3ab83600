import type { ServerResponse } from 'node:http';
import { AWS_TEST } from './credentials.js';
import { converseProblem, converseResponse, converseStreamFrames } from './bedrock-converse.js';
import { invokeJson, invokeStreamFrames } from './bedrock-invoke.js';
import { exceptionFrame } from './eventstream.js';
import {
  bearerToken,
  firstByteDelay,
  sendFrames,
  sendJson,
  sendJsonOrCut,
  startCloudServer,
  type CloudFake,
} from './kit.js';
import type { FailureScript } from './script.js';
import { verifySigV4, type AwsKey } from './sigv4-verify.js';

export interface FakeBedrockOptions {
  region?: string;
  /** Access keys whose signatures it accepts (default: the test key). */
  keys?: AwsKey[];
  /** Bedrock API keys it accepts as bearer tokens (default: the test API key). */
  apiKeys?: string[];
}

export type FakeBedrock = CloudFake;

const EVENTSTREAM = 'application/vnd.amazon.eventstream';
const ROUTE = /^\/model\/(.+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

/**
 * A fake Bedrock Runtime: Converse, ConverseStream, InvokeModel and InvokeModelWithResponseStream.
 * Every call must carry a good SigV4 signature (service `bedrock`, recomputed from the test secret)
 * or an accepted Bedrock API key as a bearer token; anything else gets Bedrock's own 403.
 */
export async function startFakeBedrock(options: FakeBedrockOptions = {}): Promise<FakeBedrock> {
  const region = options.region ?? AWS_TEST.region;
  const keys = options.keys ?? [{ accessKeyId: AWS_TEST.accessKeyId, secretAccessKey: AWS_TEST.secretAccessKey }];
  const apiKeys = options.apiKeys ?? [AWS_TEST.bedrockApiKey];
  return startCloudServer(async ({ request, res, takeScript }) => {
    const bearer = bearerToken(request.headers);
    if (bearer !== null) {
      if (!apiKeys.includes(bearer)) {
        awsError(res, 403, 'AccessDeniedException', 'Authentication failed: Please make sure your API Key is valid.');
        return;
      }
    } else {
      const refusal = await verifySigV4(request, keys, { service: 'bedrock', region });
      if (refusal !== null) {
        awsError(res, refusal.status, refusal.type, refusal.message);
        return;
      }
    }
    const route = request.method === 'POST' ? ROUTE.exec(request.path) : null;
    if (route === null) {
      awsError(res, 404, 'UnknownOperationException', '');
      return;
    }
    const modelId = route[1] ?? '';
    const operation = route[2];
    const script = takeScript();
    if (!(await firstByteDelay(res, script))) return;
    const streaming = operation === 'converse-stream' || operation === 'invoke-with-response-stream';
    if (script.fail !== null && !(streaming && script.failMidStream)) {
      failure(res, script.fail);
      return;
    }
    const requestId = { 'x-amzn-requestid': 'fake-request-0001' };
    if (operation === 'converse' || operation === 'converse-stream') {
      const problem = converseProblem(request.body);
      if (problem !== null) {
        awsError(res, 400, 'ValidationException', problem);
        return;
      }
      if (operation === 'converse') {
        await sendJsonOrCut(res, converseResponse(script), script, requestId);
        return;
      }
      await sendFrames(
        res,
        EVENTSTREAM,
        withMidStreamFailure(converseStreamFrames(script), script.failMidStream ? script.fail : null),
        script,
        requestId,
      );
      return;
    }
    if (operation === 'invoke') {
      const answer = invokeJson(modelId, request.body, script);
      if (!answer.ok) awsError(res, 400, 'ValidationException', answer.message);
      else await sendJsonOrCut(res, answer.body, script, { ...requestId, ...answer.headers });
      return;
    }
    const streamed = invokeStreamFrames(modelId, request.body, script);
    if (!streamed.ok) awsError(res, 400, 'ValidationException', streamed.message);
    else
      await sendFrames(
        res,
        EVENTSTREAM,
        withMidStreamFailure(streamed.frames, script.failMidStream ? script.fail : null),
        script,
        requestId,
      );
  });
}

/** Bedrock's error: the type in `x-amzn-errortype` (as the AWS SDK reads it), the message in the body. */
export function awsError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(
    res,
    status,
    { message },
    {
      'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': 'fake-request-0001',
    },
  );
}

const FAILURES: Record<FailureScript, { status: number; type: string; streamType: string; message: string }> = {
  throttle: {
    status: 429,
    type: 'ThrottlingException',
    streamType: 'throttlingException',
    message: 'Too many requests, please wait before trying again.',
  },
  validation: {
    status: 400,
    type: 'ValidationException',
    streamType: 'validationException',
    message: 'The model returned the following errors: Input is too long for requested model.',
  },
  auth: {
    status: 403,
    type: 'AccessDeniedException',
    streamType: 'validationException',
    message: "You don't have access to the model with the specified model ID.",
  },
  server: {
    status: 500,
    type: 'InternalServerException',
    streamType: 'internalServerException',
    message: 'The system encountered an unexpected error during processing. Try your request again.',
  },
  prompt_filter: {
    status: 400,
    type: 'ValidationException',
    streamType: 'validationException',
    message: 'The request was blocked by a guardrail.',
  },
};

function failure(res: ServerResponse, fail: FailureScript): void {
  const f = FAILURES[fail];
  awsError(res, f.status, f.type, f.message);
}

/** The first two frames, then the failure as an in-stream exception (Bedrock's mid-stream error). */
function withMidStreamFailure(frames: Uint8Array[], fail: FailureScript | null): Uint8Array[] {
  if (fail === null) return frames;
  const f = FAILURES[fail];
  return [...frames.slice(0, 2), exceptionFrame(f.streamType, f.message)];
}
