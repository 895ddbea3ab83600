import type { AuditLog } from '../../domain/audit/service.js';
import { AuditLogList, AuditLogQuery } from '../schemas/audit.js';
import { errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';
import { presentAuditRecord } from '../presenters/audit.js';

/** GET /audit-log (management key): management writes, newest first (docs/api.md, "Audit log"). */
export function auditLogRoutes(app: App, audit: AuditLog): void {
  app.get('/audit-log', {
    schema: {
      tags: ['Audit log'],
      operationId: 'listAuditLog',
      querystring: AuditLogQuery,
      response: { 200: AuditLogList, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const q = request.query;
      const page = await audit.list(
        {
          action: q.action,
          targetType: q.target_type,
          targetId: q.target_id,
          actor: q.actor,
          since: q.since,
          until: q.until,
        },
        { cursor: q.cursor, limit: q.limit ?? 100 },
      );
      return { data: page.rows.map(presentAuditRecord), next_cursor: page.next };
    },
  });
}
