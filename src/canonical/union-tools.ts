import { isRecord } from './json.js';

/**
 * Identity of a tool for the union: function tools by function name, tools
 * whose parameters carry a name (advisor, subagent) by type and that name, every other server
 * tool is a singleton per type.
 */
function toolIdentity(tool: unknown): string {
  if (!isRecord(tool)) return JSON.stringify(tool);
  const type = typeof tool.type === 'string' ? tool.type : '';
  const fn = tool.function;
  if (type === 'function' && isRecord(fn) && typeof fn.name === 'string') return `function:${fn.name}`;
  const params = tool.parameters;
  if (isRecord(params) && typeof params.name === 'string') return `${type}:${params.name}`;
  return `type:${type}`;
}

/**
 * Preset tools in their order, each replaced by the request's tool of the same identity;
 * request-only tools after them. `identity` defaults to the chat tools' one.
 */
export function unionTools(
  presetTools: readonly unknown[],
  requestTools: readonly unknown[],
  identity: (tool: unknown) => string = toolIdentity,
): unknown[] {
  const fromRequest = new Map<string, unknown>();
  for (const tool of requestTools) fromRequest.set(identity(tool), tool);
  const out: unknown[] = [];
  const used = new Set<string>();
  for (const tool of presetTools) {
    const id = identity(tool);
    if (used.has(id)) continue;
    used.add(id);
    out.push(fromRequest.has(id) ? fromRequest.get(id) : tool);
  }
  for (const tool of requestTools) {
    const id = identity(tool);
    if (!used.has(id)) {
      used.add(id);
      out.push(tool);
    }
  }
  return out;
}
