import type { Json } from '../fake-upstream/json.js';
import { googleError, scriptedGoogleError, type GoogleError } from './gemini-wire.js';
import { estimateTokens, fakeVector, type CloudScript } from './script.js';

/**
 * Vertex AI's `:predict` for Google's text embedding models, strictly: only the fields Vertex
 * defines (an unknown one is INVALID_ARGUMENT as Google phrases it), gemini-embedding-001 one
 * instance per request, a deterministic vector per text with its `token_count` (about four
 * characters a token) and the billable characters in `metadata`.
 */

/** The embedding models the fake serves, with their default dimensionality. */
export const VERTEX_EMBEDDING_MODELS: Record<string, number> = {
  'text-embedding-005': 768,
  'text-multilingual-embedding-002': 768,
  'gemini-embedding-001': 3072,
};

const BODY_FIELDS = ['instances', 'parameters'];
const INSTANCE_FIELDS = ['content', 'task_type', 'title'];
const PARAMETER_FIELDS = ['outputDimensionality', 'autoTruncate'];
const TASK_TYPES = [
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
];

function invalid(message: string): GoogleError {
  return googleError(400, 'INVALID_ARGUMENT', message);
}

function unknownField(body: Json, allowed: readonly string[], at: string): GoogleError | null {
  const key = Object.keys(body).find((k) => !allowed.includes(k));
  if (key === undefined) return null;
  const where = at === '' ? '' : ` at '${at}'`;
  return invalid(`Invalid JSON payload received. Unknown name "${key}"${where}: Cannot find field.`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The problem with a `:predict` body, or its texts and the dimensionality asked for. */
function readPredict(model: string, body: Json | null): GoogleError | { texts: string[]; dims: number } {
  if (body === null) return invalid('Invalid JSON payload received.');
  const problem = unknownField(body, BODY_FIELDS, '');
  if (problem !== null) return problem;
  const instances = body.instances;
  if (!Array.isArray(instances) || instances.length === 0) return invalid('instances must not be empty.');
  if (model === 'gemini-embedding-001' && instances.length > 1)
    return invalid(`Unable to submit request because the model ${model} supports only 1 instance per request.`);
  const texts: string[] = [];
  for (const [i, instance] of instances.entries()) {
    if (!isObject(instance)) return invalid(`Invalid value at 'instances[${i}]': expected an object.`);
    const unknown = unknownField(instance, INSTANCE_FIELDS, `instances[${i}]`);
    if (unknown !== null) return unknown;
    if (typeof instance.content !== 'string' || instance.content === '')
      return invalid(`instances[${i}].content must be a non-empty string.`);
    const taskType = instance.task_type;
    if (taskType !== undefined && (typeof taskType !== 'string' || !TASK_TYPES.includes(taskType)))
      return invalid(`Unsupported task type: ${JSON.stringify(taskType).replace(/^"|"$/g, '')}.`);
    texts.push(instance.content);
  }
  let dims = VERTEX_EMBEDDING_MODELS[model] ?? 768;
  const parameters = body.parameters;
  if (parameters !== undefined) {
    if (!isObject(parameters)) return invalid("Invalid value at 'parameters': expected an object.");
    const unknown = unknownField(parameters, PARAMETER_FIELDS, 'parameters');
    if (unknown !== null) return unknown;
    const asked = parameters.outputDimensionality;
    if (asked !== undefined) {
      if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1 || asked > dims)
        return invalid(`Value of outputDimensionality must be an integer between 1 and ${dims}.`);
      dims = asked;
    }
    if (parameters.autoTruncate !== undefined && typeof parameters.autoTruncate !== 'boolean')
      return invalid("Invalid value at 'parameters.autoTruncate' (TYPE_BOOL).");
  }
  return { texts, dims };
}

/** The answer to `:predict` of a Google model: predictions, or Google's error. */
export function answerPredict(
  scope: { resource: string; model: string },
  body: Json | null,
  script: () => CloudScript,
): GoogleError {
  if (VERTEX_EMBEDDING_MODELS[scope.model] === undefined) {
    return googleError(
      404,
      'NOT_FOUND',
      `Publisher Model \`${scope.resource}\` was not found or your project does not have access to it.`,
    );
  }
  const read = readPredict(scope.model, body);
  if ('status' in read) return read;
  const scripted = script();
  if (scripted.fail !== null) return scriptedGoogleError(scripted.fail);
  const predictions = read.texts.map((text) => ({
    embeddings: {
      values: fakeVector(text, read.dims),
      statistics: { token_count: estimateTokens(text), truncated: false },
    },
  }));
  const characters = read.texts.reduce((sum, text) => sum + text.length, 0);
  return { status: 200, body: { predictions, metadata: { billableCharacterCount: characters } } };
}
