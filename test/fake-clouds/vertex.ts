import { GOOGLE_TEST } from './credentials.js';
import { anthropicBodyProblem, anthropicErrorBody, anthropicEvents, anthropicMessage } from './anthropic-render.js';
import { answerGemini, send } from './gemini.js';
import { googleError, scriptedGoogleError } from './gemini-wire.js';
import { GOOGLE_CLOUD_AUDIENCE } from './google-oauth.js';
import {
  bearerToken,
  firstByteDelay,
  sendFrames,
  sendJson,
  sendJsonOrCut,
  sseFrame,
  startCloudServer,
  type CloudFake,
} from './kit.js';
import type { TokenLedger } from './token-ledger.js';
import { answerPredict } from './vertex-predict.js';

export type FakeVertex = CloudFake;

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const ROUTE =
  /^\/(v1|v1beta1)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/;
const GOOGLE_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens', 'predict'];
const ANTHROPIC_METHODS = ['rawPredict', 'streamRawPredict'];

/**
 * A fake Vertex AI endpoint: Gemini models under `publishers/google` (generateContent,
 * streamGenerateContent, countTokens; predict for the embedding models, vertex-predict.ts) and
 * Claude under `publishers/anthropic` (rawPredict, streamRawPredict with
 * `anthropic_version: vertex-2023-10-16`). Only bearer tokens issued by the
 * fake Google OAuth endpoint (its ledger) are accepted, and only for the test project.
 */
export async function startFakeVertex(tokens: TokenLedger, project: string = GOOGLE_TEST.project): Promise<FakeVertex> {
  return startCloudServer(async ({ request, res, takeScript }) => {
    if (!tokens.isValid(bearerToken(request.headers), GOOGLE_CLOUD_AUDIENCE)) {
      send(
        res,
        googleError(
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        ),
      );
      return;
    }
    const route = request.method === 'POST' ? ROUTE.exec(request.path) : null;
    if (route === null) {
      send(res, googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.'));
      return;
    }
    const [, , routeProject = '', location = '', publisher, model = '', method = ''] = route;
    if (routeProject !== project) {
      send(
        res,
        googleError(
          403,
          'PERMISSION_DENIED',
          `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${routeProject}/locations/${location}/publishers/${String(publisher)}/models/${model}' (or it may not exist).`,
        ),
      );
      return;
    }
    if (publisher === 'google') {
      if (!GOOGLE_METHODS.includes(method))
        return send(res, googleError(400, 'INVALID_ARGUMENT', `Unsupported method ${method}.`));
      if (method === 'predict') {
        const resource = `projects/${routeProject}/locations/${location}/publishers/google/models/${model}`;
        const answer = answerPredict({ resource, model }, request.body, takeScript);
        if (answer.status === 200) sendJson(res, 200, answer.body);
        else send(res, answer);
        return;
      }
      await answerGemini(request, res, { model, method, script: takeScript });
      return;
    }
    if (!ANTHROPIC_METHODS.includes(method))
      return send(res, googleError(400, 'INVALID_ARGUMENT', `Unsupported method ${method}.`));
    const problem = anthropicBodyProblem(request.body, VERTEX_ANTHROPIC_VERSION);
    if (problem !== null) {
      sendJson(res, 400, anthropicErrorBody('invalid_request_error', problem));
      return;
    }
    const script = takeScript();
    if (!(await firstByteDelay(res, script))) return;
    const streaming = method === 'streamRawPredict' || request.body?.stream === true;
    if (script.fail !== null && !(streaming && script.failMidStream))
      return send(res, scriptedGoogleError(script.fail));
    const id = 'msg_vrtx_fake0001';
    if (!streaming) {
      await sendJsonOrCut(res, anthropicMessage(script, model, id), script);
      return;
    }
    let frames = anthropicEvents(script, model, id).map((e) => sseFrame(e, String(e.type)));
    if (script.fail !== null)
      frames = [...frames.slice(0, 2), sseFrame(anthropicErrorBody('overloaded_error', 'Overloaded'), 'error')];
    await sendFrames(res, 'text/event-stream; charset=utf-8', frames, script);
  });
}
