import { Type } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';
import { ApiSurfaceSchema } from './common.js';

const Id = Type.String({ minLength: 1, maxLength: 200 });

export const ActivityQuery = Type.Object({
  date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  key_hash: Type.Optional(Id),
  workspace_id: Type.Optional(Id),
});

/** OpenRouter's activity row. */
export const ActivityRowObject = Type.Object({
  date: Type.String(),
  model: Type.String(),
  model_permaslug: Type.String(),
  endpoint_id: Type.String(),
  provider_name: Type.String(),
  usage: Type.Number(),
  byok_usage_inference: Type.Number(),
  requests: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  reasoning_tokens: Type.Integer(),
});
export const ActivityList = Type.Object({ data: Type.Array(ActivityRowObject) });

const Status = Type.Union([
  Type.Literal('success'),
  Type.Literal('error'),
  Type.Literal('cancelled'),
  Type.Literal('refused'),
]);

/** Why a call was refused: status, code, the gateway's message and the rule, guardrail or budget. */
export const RefusalObject = Type.Object({
  status: Type.Integer(),
  code: Type.String(),
  message: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  count: Type.Integer(),
});

export const GenerationListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
  key_hash: Type.Optional(Id),
  model: Type.Optional(Id),
  provider: Type.Optional(Id),
  status: Type.Optional(Status),
  http_status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
  flagged: Type.Optional(Type.Boolean()),
  workspace_id: Type.Optional(Id),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  /** Generations whose User-Agent starts with this (e.g. `claude-cli`, `codex`). */
  user_agent: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  origin: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  api_surface: Type.Optional(ApiSurfaceSchema),
});

/** One row of the console's activity log: everything but prompt and completion text. */
export const GenerationRowObject = Type.Object({
  id: Type.String(),
  created_at: Type.String(),
  key_hash: Type.String(),
  key_name: Nullable(Type.String()),
  workspace_id: Type.String(),
  model: Type.String(),
  provider_name: Type.String(),
  endpoint_id: Type.String(),
  status: Status,
  /** OpenRouter's enum (`completions` or `embeddings`) and the surface the client called. */
  api_type: Type.Union([Type.Literal('completions'), Type.Literal('embeddings')]),
  api_surface: ApiSurfaceSchema,
  finish_reason: Nullable(Type.String()),
  streamed: Type.Boolean(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  reasoning_tokens: Type.Integer(),
  cost_usd: Type.Number(),
  latency_ms: Type.Number(),
  first_token_ms: Nullable(Type.Number()),
  fallbacks: Type.Integer(),
  attempts: Type.Array(
    Type.Object({ provider: Type.String(), model: Type.String(), status: Nullable(Type.Integer()) }),
  ),
  flags: Type.Array(Type.String()),
  user_agent: Nullable(Type.String()),
  session_id: Nullable(Type.String()),
  origin: Nullable(Type.String()),
  refusal: Nullable(RefusalObject),
});
export const GenerationPageObject = Type.Object({
  data: Type.Array(GenerationRowObject),
  next_cursor: Nullable(Type.String()),
});

export const GenerationIdParams = Type.Object({ id: Id });

export const UsageQuery = Type.Object({
  range: Type.Optional(Type.Union([Type.Literal('24h'), Type.Literal('30d')], { default: '24h' })),
  group_by: Type.Optional(
    Type.Union(
      ['none', 'model', 'provider', 'key', 'workspace'].map((v) => Type.Literal(v)),
      { default: 'none' },
    ),
  ),
  top: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
});

const numbers = Type.Array(Type.Number());
export const UsageReportObject = Type.Object({
  data: Type.Object({
    range: Type.String(),
    bucket: Type.String(),
    group_by: Type.String(),
    buckets: Type.Array(Type.String()),
    series: Type.Array(
      Type.Object({
        group: Type.String(),
        label: Type.String(),
        spend_usd: numbers,
        requests: numbers,
        errors: numbers,
      }),
    ),
    totals: Type.Object({
      spend_usd: Type.Number(),
      requests: Type.Integer(),
      errors: Type.Integer(),
      /** How many of `errors` were refused calls (budget, guardrail, unknown model, rate limit, bad request). */
      refused: Type.Integer(),
      error_rate: Type.Number(),
    }),
  }),
});

export const LimitsQuery = Type.Object({ top: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })) });

const Reset = Nullable(Type.String());
export const LimitsReportObject = Type.Object({
  data: Type.Object({
    keys: Type.Array(
      Type.Object({
        hash: Type.String(),
        name: Type.String(),
        label: Type.String(),
        workspace_id: Type.String(),
        limit_usd: Type.Number(),
        limit_reset: Reset,
        usage_usd: Type.Number(),
        remaining_usd: Type.Number(),
        fraction_used: Type.Number(),
        disabled: Type.Boolean(),
      }),
    ),
    guardrails: Type.Array(
      Type.Object({
        guardrail_id: Type.String(),
        guardrail_name: Type.String(),
        limit_usd: Type.Number(),
        reset_interval: Reset,
        assignee_type: Type.Union([Type.Literal('key'), Type.Literal('member')]),
        assignee_id: Type.String(),
        assignee_label: Type.String(),
        usage_usd: Type.Number(),
        remaining_usd: Type.Number(),
        fraction_used: Type.Number(),
      }),
    ),
  }),
});

export const EndpointHealthList = Type.Object({
  data: Type.Array(
    Type.Object({
      endpoint_id: Type.String(),
      provider: Type.String(),
      model: Type.String(),
      upstream_model: Type.String(),
      circuit: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
      recent_failures: Type.Integer(),
      latency_ms: Nullable(Type.Number()),
      throughput_tps: Nullable(Type.Number()),
      requests_1h: Type.Integer(),
      errors_1h: Type.Integer(),
      error_rate_1h: Type.Number(),
    }),
  ),
});
