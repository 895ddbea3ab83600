// Reads several pages use. Lists that page by offset are read whole up to a bound, since the console
// shows them as pickers; the bound keeps one page load small on a large install.
import { get } from './client.js';
import type {
  Guardrail,
  Key,
  KeyAssignment,
  Member,
  MemberAssignment,
  Model,
  Page,
  Provider,
  Workspace,
} from './types.js';

const PICKER_BOUND = 1000;

async function readAll<T>(path: string, pageSize: number, query: Record<string, string> = {}, signal?: AbortSignal) {
  const out: T[] = [];
  for (let offset = 0; offset < PICKER_BOUND; offset += pageSize) {
    const page = await get<Page<T>>(path, { query: { ...query, offset, limit: pageSize }, signal });
    out.push(...page.data);
    const total = page.total_count ?? out.length;
    if (page.data.length < pageSize || out.length >= total) break;
  }
  return out;
}

export const listWorkspaces = (signal?: AbortSignal) => readAll<Workspace>('/workspaces', 100, {}, signal);
export const listMembers = (signal?: AbortSignal) => readAll<Member>('/organization/members', 100, {}, signal);

export async function listGuardrails(signal?: AbortSignal): Promise<Guardrail[]> {
  // Guardrails of every workspace: a key may be assigned a guardrail of another workspace.
  const workspaces = await listWorkspaces(signal);
  const lists = await Promise.all(
    workspaces.map((w) => readAll<Guardrail>('/guardrails', 100, { workspace_id: w.id }, signal)),
  );
  return lists.flat();
}

/** Every key of a workspace, disabled ones included (the list answers up to 500 per page). */
export async function listKeys(workspaceId: string | null, signal?: AbortSignal): Promise<Key[]> {
  const out: Key[] = [];
  for (let offset = 0; offset < 5000; offset += 500) {
    const page = await get<Page<Key>>('/keys', {
      query: { offset, include_disabled: true, workspace_id: workspaceId ?? undefined },
      signal,
    });
    out.push(...page.data);
    if (page.data.length < 500) break;
  }
  return out;
}

export async function listModels(signal?: AbortSignal): Promise<Model[]> {
  return (await get<Page<Model>>('/models', { signal })).data;
}

export async function listProviders(signal?: AbortSignal): Promise<Provider[]> {
  return (await get<Page<Provider>>('/providers', { signal })).data;
}

export function memberName(m: Member): string {
  const name = [m.first_name, m.last_name].filter((x) => x !== null && x !== '').join(' ');
  return name === '' ? m.email : `${name} <${m.email}>`;
}

/** Which guardrail each key and member holds directly (key hash / member id → guardrail id). */
export async function listAssignments(signal?: AbortSignal) {
  const [keys, members] = await Promise.all([
    readAll<KeyAssignment>('/guardrails/assignments/keys', 100, {}, signal),
    readAll<MemberAssignment>('/guardrails/assignments/members', 100, {}, signal),
  ]);
  return {
    keys: new Map(keys.map((a) => [a.key_hash, a.guardrail_id])),
    members: new Map(members.map((a) => [a.user_id, a.guardrail_id])),
  };
}
