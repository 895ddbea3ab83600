// Names for ids: what the audit log and other pages show instead of raw ids and hashes. Read once per
// page from the pickers' lists (bounded like them); an id that is no longer there stays an id.
import { get } from './client.js';
import { listGuardrails, listKeys, listMembers, listWorkspaces, memberName } from './resources.js';
import type { Page, Preset } from './types.js';

export interface Named {
  name: string;
  /** The console route that shows it, if any. */
  href: string | null;
}

export interface Directory {
  /** `type:id` → name and link (types: key, workspace, guardrail, member, preset). */
  find(type: string, id: string): Named | null;
}

const presetsOf = async (workspaceId: string, signal?: AbortSignal) =>
  (await get<Page<Preset>>('/presets', { query: { workspace_id: workspaceId, limit: 100 }, signal })).data;

export async function loadDirectory(signal?: AbortSignal): Promise<Directory> {
  const [workspaces, guardrails, members] = await Promise.all([
    listWorkspaces(signal),
    listGuardrails(signal),
    listMembers(signal),
  ]);
  const [keys, presets] = await Promise.all([
    Promise.all(workspaces.map((w) => listKeys(w.id, signal))),
    Promise.all(workspaces.map((w) => presetsOf(w.id, signal))),
  ]);
  const slugOf = new Map(workspaces.map((w) => [w.id, w.slug]));
  const byId = new Map<string, Named>();
  for (const w of workspaces) byId.set(`workspace:${w.id}`, { name: w.name, href: `#/workspaces/${w.slug}` });
  for (const g of guardrails) byId.set(`guardrail:${g.id}`, { name: g.name, href: `#/guardrails/${g.id}` });
  for (const m of members) byId.set(`member:${m.id}`, { name: memberName(m), href: null });
  for (const k of keys.flat()) {
    const ws = encodeURIComponent(slugOf.get(k.workspace_id) ?? k.workspace_id);
    byId.set(`key:${k.hash}`, { name: `${k.name} (${k.label})`, href: `#/keys?workspace=${ws}&hash=${k.hash}` });
  }
  for (const p of presets.flat()) {
    const ws = encodeURIComponent(p.workspace_id);
    byId.set(`preset:${p.id}`, { name: p.name, href: `#/presets/${encodeURIComponent(p.slug)}?workspace=${ws}` });
  }
  return { find: (type, id) => byId.get(`${type}:${id}`) ?? null };
}
