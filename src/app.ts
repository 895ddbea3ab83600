import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { frameworkErrors, installErrorHandling } from './http/plugins/error-handler.js';
import { clientErrorHandler } from './http/plugins/client-errors.js';
import { installJsonBodyParser } from './http/plugins/json-body.js';
import { requireKey } from './http/plugins/auth.js';
import { permissionLookups } from './http/permissions/lookups.js';
import { collectSessionRoutes } from './http/permissions/enforce.js';
import { countFailedAuth } from './http/plugins/auth-throttle.js';
import { FailureThrottle, type FailureThrottleOptions } from './domain/common/failure-throttle.js';
import { validatorCompiler } from './http/validation.js';
import { lazySerializerFactory } from './http/lazy-serializer.js';
import { ErrorEnvelope } from './http/schemas/common.js';
import { KeyObject } from './http/schemas/keys.js';
import { MemberObject } from './http/schemas/members.js';
import { WorkspaceMemberObject, WorkspaceObject } from './http/schemas/workspaces.js';
import { currentKeyRoute, keyManagementRoutes } from './http/routes/keys.js';
import { memberRoutes } from './http/routes/members.js';
import { roleRoutes } from './http/routes/roles.js';
import { workspaceRoutes } from './http/routes/workspaces.js';
import { guardrailRoutes } from './http/routes/guardrails.js';
import { presetReadRoutes, presetWriteRoutes } from './http/routes/presets.js';
import { healthRoutes } from './http/routes/health.js';
import { catalogRoutes } from './http/routes/catalog.js';
import { catalogReloadRoute } from './http/routes/catalog-reload.js';
import { modelCallRoutes } from './http/routes/model-calls.js';
import { generationRoute } from './http/routes/generation.js';
import { countTokensRoute } from './http/routes/messages-count-tokens.js';
import { metricsRoute } from './http/routes/metrics.js';
import { installHttpMetrics } from './http/plugins/http-metrics.js';
import { analyticsReadRoutes } from './http/routes/analytics.js';
import { consoleAnalyticsRoutes } from './http/routes/console-analytics.js';
import { consoleSessionRoutes } from './http/routes/console-session.js';
import { consoleAuthMethodsRoute, consoleSsoRoutes } from './http/routes/console-sso.js';
import type { OidcConfig } from './config/oidc-env.js';
import { registerConsole } from './http/console/static.js';
import type { CookieSecure } from './http/console/cookie.js';
import { installApiHeaders } from './http/plugins/security-headers.js';
import { auditLogRoutes } from './http/routes/audit-log.js';
import { AuditRecordObject } from './http/schemas/audit.js';
import { CALL_LOG_MSG, callLogLine } from './observability/call-log.js';
import { asyncStdout, type BatchedLogDestination } from './observability/log-destination.js';
import { RequestLogController } from './http/request-log.js';
import { recordRefusedCall } from './http/refused-calls.js';
import type { App } from './http/types.js';
import { LeanRoutes } from './http/edge/lean-routes.js';
import { installModelCallEdge } from './http/edge/install.js';
import type { Services } from './services.js';

export const API_PREFIX = '/api/v1';

export interface BuildAppOptions {
  services: Services;
  bodyLimitBytes: number;
  logger: FastifyServerOptions['logger'];
  /** Extra route groups registered by later feature areas, each in its auth scope. */
  extensions?: AppExtension[];
  streamKeepAliveAfterMs?: number;
  streamKeepAliveEveryMs?: number;
  /** The web console: built files (default web/dist) and the session cookie's `Secure` rule. */
  console?: {
    dir: string | null;
    cookieSecure: CookieSecure;
    /** Single sign-on (null: off) and whether the management key may sign in (default on). */
    oidc?: OidcConfig | null;
    keySignIn?: boolean;
  };
  /** Failed-authentication throttle per client address (default 20 per minute, 10,000 addresses). */
  authThrottle?: FailureThrottleOptions;
  /** A throttled address's failing request is answered after this long (default 0). */
  authFailureDelayMs?: number;
  trustProxy?: boolean | string | number;
  /** Slow clients (default 10 s for the headers, 60 s for the whole request; 0: no request limit). */
  clientTimeouts?: { headersMs: number; requestMs: number };
}

export interface AppExtension {
  level: 'management' | 'api' | 'any' | 'public';
  register(app: App, services: Services): void;
}

/** Request logs carry method, path and status; never bodies, query values or headers. */
const serializers = {
  req: (req: { method: string; url: string; id: string }) => ({
    method: req.method,
    path: req.url.split('?')[0],
    id: req.id,
  }),
};

/** The caller's pino options plus ours; stdout is written in batches unless a stream is given. */
function loggerOptions(logger: FastifyServerOptions['logger']): {
  logger: FastifyServerOptions['logger'];
  stdout: BatchedLogDestination | null;
} {
  if (logger === false) return { logger: false, stdout: null };
  const given = typeof logger === 'object' && logger !== null ? logger : {};
  const stdout = 'stream' in given && given.stream !== undefined ? null : asyncStdout();
  return {
    logger: {
      ...(stdout === null ? {} : { stream: stdout }),
      ...given,
      serializers,
      redact: ['req.headers.authorization'],
    },
    stdout,
  };
}

/**
 * Node checks header and request deadlines on a timer (every 30 s by default, so a slow-header
 * client used to be cut only after ~90 s): check often enough that a deadline is kept within a
 * fraction of itself. Only the receiving of a request is timed, never a (streamed) answer.
 */
function slowClientOptions(timeouts: { headersMs: number; requestMs: number }): {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
  requestTimeout: number;
} {
  return {
    http: {
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.max(250, Math.min(2000, Math.floor(timeouts.headersMs / 5))),
    },
    requestTimeout: timeouts.requestMs,
  };
}

/** A hop count trusts that many proxies in front of the server, whatever their addresses. */
function trustedProxies(
  trust: boolean | string | number,
): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Every request's id (both edges). */
const genReqId = (): string => `req_${randomUUID()}`;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { services } = options;
  const logging = loggerOptions(options.logger);
  // One throttle for every scope: failures anywhere count against the address everywhere.
  const authThrottle = new FailureThrottle(
    options.authThrottle ?? { maxFailures: 20, windowMs: 60_000, maxAddresses: 10_000 },
  );
  const app = Fastify({
    logger: logging.logger,
    // Model calls log one line (the call-log line, or a compact one when refused); see request-log.ts.
    logController: new RequestLogController(),
    bodyLimit: options.bodyLimitBytes,
    genReqId,
    return503OnClosing: true,
    forceCloseConnections: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    trustProxy: trustedProxies(options.trustProxy ?? false),
    frameworkErrors: frameworkErrors(options.bodyLimitBytes),
    ...slowClientOptions(options.clientTimeouts ?? { headersMs: 10_000, requestMs: 60_000 }),
    clientErrorHandler,
    // Response serializers are compiled on a route's first answer, not all at start-up.
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  installHttpMetrics(app, services.metrics);
  if (logging.stdout !== null) {
    const stdout = logging.stdout;
    app.addHook('onClose', (_instance, done) => {
      stdout.close();
      done();
    });
  }
  services.callLog.write = (generation) => app.log.info({ call: callLogLine(generation) }, CALL_LOG_MSG);
  const renderError = installErrorHandling(app, options.bodyLimitBytes, (request, reply, error) =>
    recordRefusedCall(services.refusals, request, reply, error),
  );
  installJsonBodyParser(app);

  for (const schema of [
    ErrorEnvelope,
    KeyObject,
    WorkspaceObject,
    WorkspaceMemberObject,
    MemberObject,
    AuditRecordObject,
  ])
    app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchyard', version: '1.0.0', description: 'Self-hosted, OpenRouter-compatible model gateway' },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // With the X-CSRF-Token header of the session; never accepted on model calls.
          consoleSession: { type: 'apiKey', in: 'cookie', name: 'switchyard_session' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url }) => ({
      schema,
      url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url,
    }),
  });

  healthRoutes(app, services);
  const consoleOptions = options.console ?? { dir: null, cookieSecure: 'auto' };
  const sso = {
    oidc: consoleOptions.oidc ?? null,
    keySignIn: consoleOptions.keySignIn ?? true,
    cookieSecure: consoleOptions.cookieSecure,
  };
  await consoleSsoRoutes(app, services, sso);
  await registerConsole(app, consoleOptions.dir);
  const sessionRoutes = new Set<string>();
  const leanRoutes = new LeanRoutes();
  app.decorate('sessionRoutes', sessionRoutes);
  await app.register(
    async (api: App) => {
      installApiHeaders(api);
      api.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
      const permissions = { lookups: permissionLookups(services), prefix: API_PREFIX };
      // Console sessions stand for their management key or person in every scope but model calls ('api').
      const scope = (level: AppExtension['level'], register: (scoped: App) => void) =>
        api.register(async (scoped: App) => {
          if (level !== 'public') {
            countFailedAuth(scoped, authThrottle);
            requireKey(scoped, {
              authenticator: services.authenticator,
              level,
              sessions: services.consoleSessions,
              throttle: authThrottle,
              refusalDelayMs: options.authFailureDelayMs ?? 0,
              permissions,
            });
            if (level !== 'api') collectSessionRoutes(scoped, sessionRoutes, API_PREFIX);
          }
          register(scoped);
        });
      await scope('public', (s) => {
        consoleSessionRoutes(s, services, consoleOptions.cookieSecure, sso.keySignIn);
        consoleAuthMethodsRoute(s, sso);
      });
      await scope('management', (s) => {
        keyManagementRoutes(s, services);
        metricsRoute(s, services.metrics);
        memberRoutes(s, services);
        roleRoutes(s, services);
        workspaceRoutes(s, services);
        guardrailRoutes(s, services);
        presetWriteRoutes(s, services.presets);
        consoleAnalyticsRoutes(s, services);
        catalogReloadRoute(s, services);
        auditLogRoutes(s, services.auditLog);
      });
      await scope('any', (s) => {
        currentKeyRoute(s, services);
        catalogRoutes(s, services.catalogHolder, services.health);
        presetReadRoutes(s, services.presets);
        analyticsReadRoutes(s, services);
      });
      await scope('api', (s) => {
        modelCallRoutes(s, {
          gateway: services.gateway,
          responses: { store: services.responses, policy: services.policy },
          keepAliveAfterMs: options.streamKeepAliveAfterMs ?? 2000,
          keepAliveEveryMs: options.streamKeepAliveEveryMs ?? 10_000,
          leanRoutes,
        });
        generationRoute(s, services.meter);
        countTokensRoute(s, { catalog: services.catalog, policy: services.policy, providers: services.providers });
      });
      for (const ext of options.extensions ?? []) await scope(ext.level, (s) => ext.register(s, services));
    },
    { prefix: API_PREFIX },
  );
  // Model calls are served by the lean edge ahead of Fastify's request pipeline (src/http/edge).
  installModelCallEdge(app, {
    routes: leanRoutes,
    authenticator: services.authenticator,
    throttle: authThrottle,
    bodyLimit: options.bodyLimitBytes,
    genReqId,
    renderError,
    metrics: services.metrics,
  });
  return app;
}
