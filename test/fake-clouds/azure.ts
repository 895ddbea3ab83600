import { timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { AZURE_TEST } from './credentials.js';
import {
  azureChat,
  azureChunks,
  azureEmbeddings,
  azureError,
  scriptedAzureError,
  type AzureError,
} from './azure-wire.js';
import { azureResponse, azureResponseEvents, responsesProblem } from './azure-responses.js';
import { COGNITIVE_AUDIENCE } from './entra.js';
import {
  bearerToken,
  firstByteDelay,
  header,
  sendFrames,
  sendJson,
  sendJsonOrCut,
  sseFrame,
  startCloudServer,
  type CloudFake,
} from './kit.js';
import type { Json } from '../fake-upstream/json.js';
import type { CloudScript } from './script.js';
import type { TokenLedger } from './token-ledger.js';

export interface FakeAzureOptions {
  apiKey?: string;
  /** Deployment name → the model it serves (default `gpt4o` → `gpt-4o-2024-11-20`, `embed` → `text-embedding-3-small`). */
  deployments?: Record<string, string>;
  /** Entra tokens it accepts (the fake Entra endpoint's ledger). */
  entra?: TokenLedger;
}

export type FakeAzure = CloudFake;

const DEPLOYMENT_ROUTE = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;
const V1_ROUTE = /^\/openai\/v1\/(chat\/completions|embeddings|responses)$/;
const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

/**
 * A fake Azure OpenAI resource: `/openai/deployments/{d}/chat/completions|embeddings?api-version=`
 * and the v1 API `/openai/v1/chat/completions|embeddings|responses` (model in the body; the
 * Responses API only on v1, as on Azure). Auth: the
 * `api-key` header, an Entra bearer token for Cognitive Services, or (v1 only) the key as bearer.
 */
export async function startFakeAzure(options: FakeAzureOptions = {}): Promise<FakeAzure> {
  const apiKey = options.apiKey ?? AZURE_TEST.apiKey;
  const deployments = options.deployments ?? { gpt4o: 'gpt-4o-2024-11-20', embed: 'text-embedding-3-small' };
  return startCloudServer(async ({ request, res, takeScript }) => {
    const deploymentRoute = DEPLOYMENT_ROUTE.exec(request.path);
    const v1Route = V1_ROUTE.exec(request.path);
    if (request.method !== 'POST' || (deploymentRoute === null && v1Route === null)) {
      send(res, azureError(404, '404', 'Resource not found'));
      return;
    }
    const keyHeader = header(request.headers, 'api-key');
    const bearer = bearerToken(request.headers);
    const authorised =
      (keyHeader !== undefined && same(keyHeader, apiKey)) ||
      (bearer !== null &&
        (options.entra?.isValid(bearer, COGNITIVE_AUDIENCE) === true || (v1Route !== null && same(bearer, apiKey))));
    if (!authorised) {
      send(
        res,
        azureError(
          401,
          '401',
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        ),
      );
      return;
    }
    const apiVersion = request.query.get('api-version');
    if (deploymentRoute !== null && (apiVersion === null || !API_VERSION.test(apiVersion))) {
      send(res, azureError(404, '404', 'Resource not found'));
      return;
    }
    const body = request.body ?? {};
    const deployment =
      deploymentRoute !== null ? (deploymentRoute[1] ?? '') : typeof body.model === 'string' ? body.model : '';
    const model = deployments[deployment];
    if (model === undefined) {
      send(
        res,
        azureError(
          404,
          'DeploymentNotFound',
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
        ),
      );
      return;
    }
    const operation = deploymentRoute?.[2] ?? v1Route?.[1];
    if (operation === 'embeddings') {
      const answer = azureEmbeddings(body, model);
      if (answer === null) send(res, azureError(400, 'invalid_request_error', "'input' is a required property"));
      else sendJson(res, 200, answer);
      return;
    }
    if (operation === 'responses') {
      const problem = responsesProblem(body);
      if (problem !== null) return send(res, azureError(400, 'invalid_request_error', problem));
      await answerResponses(res, takeScript(), body);
      return;
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      send(res, azureError(400, 'BadRequest', "'messages' is a required property"));
      return;
    }
    const script = takeScript();
    if (!(await firstByteDelay(res, script))) return;
    const streaming = body.stream === true;
    if (script.fail !== null && !(streaming && script.failMidStream)) {
      send(res, scriptedAzureError(script.fail, apiVersion ?? 'v1'));
      return;
    }
    const headers = AZURE_HEADERS;
    if (!streaming) {
      await sendJsonOrCut(res, azureChat(script, model), script, headers);
      return;
    }
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    let frames = azureChunks(script, model, includeUsage).map((c) => `data: ${JSON.stringify(c)}\n\n`);
    if (script.fail !== null)
      frames = [
        ...frames.slice(0, 2),
        `data: ${JSON.stringify(scriptedAzureError(script.fail, apiVersion ?? 'v1').body)}\n\n`,
      ];
    else frames.push('data: [DONE]\n\n');
    await sendFrames(res, 'text/event-stream; charset=utf-8', frames, script, headers);
  });
}

const AZURE_HEADERS = { 'apim-request-id': 'fake-apim-0001', 'x-ms-region': 'East US' };

async function answerResponses(res: ServerResponse, script: CloudScript, body: Json): Promise<void> {
  if (!(await firstByteDelay(res, script))) return;
  if (script.fail !== null) return send(res, scriptedAzureError(script.fail, 'v1'));
  if (body.stream !== true) return sendJsonOrCut(res, azureResponse(script, body), script, AZURE_HEADERS);
  const frames = azureResponseEvents(script, body).map((e) => sseFrame(e, String(e.type)));
  await sendFrames(res, 'text/event-stream; charset=utf-8', frames, script, AZURE_HEADERS);
}

function send(res: ServerResponse, error: AzureError): void {
  sendJson(res, error.status, error.body, error.headers);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
