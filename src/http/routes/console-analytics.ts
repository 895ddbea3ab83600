import { Type } from '@sinclair/typebox';
import { toPatch } from '../../domain/guardrails/validate.js';
import { previewFilters, type FilterPreview } from '../../domain/guardrails/try-filters.js';
import type { UsageGroupBy } from '../../domain/analytics/types.js';
import { validatePattern } from '../../filters/index.js';
import type { Services } from '../../services.js';
import {
  EndpointHealthList,
  LimitsQuery,
  LimitsReportObject,
  UsageQuery,
  UsageReportObject,
} from '../schemas/analytics.js';
import { errorResponses } from '../schemas/common.js';
import { GuardrailParams, UpdateGuardrailBody } from '../schemas/guardrails.js';
import { guardrailInputFrom } from '../presenters/guardrails.js';
import type { App } from '../types.js';

const ratio = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

const ScanText = {
  text: Type.String({ maxLength: 100_000 }),
  role: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('system'), Type.Literal('assistant')])),
};
const ScanSavedBody = Type.Object(ScanText, { additionalProperties: false });
const ScanConfigBody = Type.Object(
  {
    ...ScanText,
    content_filter_builtins: UpdateGuardrailBody.properties.content_filter_builtins,
    content_filters: UpdateGuardrailBody.properties.content_filters,
  },
  { additionalProperties: false },
);
const ScanAnswer = Type.Object({
  data: Type.Object({
    outcome: Type.Union(['blocked', 'redacted', 'flagged', 'clean'].map((v) => Type.Literal(v))),
    blocked_by: Type.Union([Type.String(), Type.Null()]),
    flags: Type.Array(Type.String()),
    redactions: Type.Integer(),
    redacted_text: Type.Union([Type.String(), Type.Null()]),
    failed_filters: Type.Array(Type.String()),
    matches: Type.Array(
      Type.Object({ filter: Type.String(), action: Type.String(), start: Type.Integer(), end: Type.Integer() }),
    ),
  }),
});
const PatternBody = Type.Object({ pattern: Type.String({ maxLength: 200_000 }) }, { additionalProperties: false });
const PatternAnswer = Type.Object({
  data: Type.Object({ valid: Type.Boolean(), error: Type.Union([Type.String(), Type.Null()]) }),
});

const presentPreview = (p: FilterPreview) => ({
  data: {
    outcome: p.outcome,
    blocked_by: p.blockedBy,
    flags: p.flags,
    redactions: p.redactions,
    redacted_text: p.redactedText,
    failed_filters: p.failedFilters,
    matches: p.matches,
  },
});

/** The console's overview, limits, endpoint health and guardrail tools: management key or session. */
export function consoleAnalyticsRoutes(app: App, services: Services): void {
  const analytics = services.analytics;

  app.get('/analytics/usage', {
    schema: {
      tags: ['Analytics'],
      operationId: 'getUsageSeries',
      summary: 'Spend, calls and errors per hour (24h) or day (30d), optionally per model/provider/key/workspace',
      querystring: UsageQuery,
      response: { 200: UsageReportObject, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const range = request.query.range ?? '24h';
      const groupBy = (request.query.group_by ?? 'none') as UsageGroupBy;
      const report = await analytics.usage(range, groupBy, request.query.top ?? 10);
      return {
        data: {
          range,
          bucket: report.bucket,
          group_by: groupBy,
          buckets: report.buckets,
          series: report.series.map((s) => ({
            group: s.group,
            label: s.label,
            spend_usd: s.spendUsd,
            requests: s.requests,
            errors: s.errors,
          })),
          totals: {
            spend_usd: report.totals.spendUsd,
            requests: report.totals.requests,
            errors: report.totals.errors,
            refused: report.totals.refused,
            error_rate: ratio(report.totals.errors, report.totals.requests),
          },
        },
      };
    },
  });

  app.get('/analytics/limits', {
    schema: {
      tags: ['Analytics'],
      operationId: 'getLimits',
      summary: 'Keys and guardrail budgets closest to their limits',
      querystring: LimitsQuery,
      response: { 200: LimitsReportObject, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const report = await analytics.limits(request.query.top ?? 10);
      const used = (usage: number, limit: number) => ({
        usage_usd: usage,
        remaining_usd: Math.max(0, limit - usage),
        fraction_used: limit > 0 ? usage / limit : usage > 0 ? 1 : 0,
      });
      return {
        data: {
          keys: report.keys.map((k) => ({
            hash: k.hash,
            name: k.name,
            label: k.label,
            workspace_id: k.workspaceId,
            limit_usd: k.limitUsd,
            limit_reset: k.limitReset,
            ...used(k.usageUsd, k.limitUsd),
            disabled: k.disabled,
          })),
          guardrails: report.budgets.map((b) => ({
            guardrail_id: b.guardrailId,
            guardrail_name: b.guardrailName,
            limit_usd: b.limitUsd,
            reset_interval: b.resetInterval,
            assignee_type: b.assigneeType,
            assignee_id: b.assigneeId,
            assignee_label: b.assigneeLabel,
            ...used(b.usageUsd, b.limitUsd),
          })),
        },
      };
    },
  });

  app.get('/analytics/endpoints', {
    schema: {
      tags: ['Analytics'],
      operationId: 'getEndpointHealth',
      summary: "Each provider endpoint's circuit state (this replica), latency and recent error rate",
      response: { 200: EndpointHealthList, ...errorResponses(401, 403, 500) },
    },
    handler: async () => ({
      data: (await analytics.endpoints()).map((e) => ({
        endpoint_id: e.endpointId,
        provider: e.providerId,
        model: e.model,
        upstream_model: e.upstreamModel,
        circuit: e.circuit,
        recent_failures: e.recentFailures,
        latency_ms: e.latencyMs,
        throughput_tps: e.throughput,
        requests_1h: e.requests,
        errors_1h: e.errors,
        error_rate_1h: ratio(e.errors, e.requests),
      })),
    }),
  });

  app.post('/guardrails/:id/scan', {
    schema: {
      tags: ['Guardrails'],
      operationId: 'scanWithGuardrail',
      summary: "Run a guardrail's content filters on a text, without calling a model",
      params: GuardrailParams,
      body: ScanSavedBody,
      response: { 200: ScanAnswer, ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const guardrail = await services.guardrails.get(request.params.id);
      return presentPreview(
        previewFilters({
          builtins: guardrail.contentFilterBuiltins ?? [],
          custom: guardrail.contentFilters ?? [],
          text: request.body.text,
          role: request.body.role ?? 'user',
        }),
      );
    },
  });

  app.post('/guardrails/scan', {
    schema: {
      tags: ['Guardrails'],
      operationId: 'scanWithFilters',
      summary: 'Run unsaved content-filter settings on a text, without calling a model',
      body: ScanConfigBody,
      response: { 200: ScanAnswer, ...errorResponses(400, 401, 403, 500) },
    },
    handler: (request) => {
      const { text, role, ...filters } = request.body;
      // The same validation as a guardrail write: a bad pattern is the same 400, naming its field.
      const patch = toPatch(guardrailInputFrom(filters, services.catalog.vendorNames), services.catalog);
      return presentPreview(
        previewFilters({
          builtins: patch.contentFilterBuiltins ?? [],
          custom: patch.contentFilters ?? [],
          text,
          role: role ?? 'user',
        }),
      );
    },
  });

  app.post('/guardrails/validate-pattern', {
    schema: {
      tags: ['Guardrails'],
      operationId: 'validatePattern',
      summary: 'Whether RE2 accepts a custom content-filter pattern, and why not',
      body: PatternBody,
      response: { 200: PatternAnswer, ...errorResponses(400, 401, 403, 500) },
    },
    handler: (request) => {
      const error = validatePattern(request.body.pattern);
      return { data: { valid: error === null, error } };
    },
  });
}
