import type { Services } from '../../services.js';
import type { PermissionLookups } from './enforce.js';

/** The permission table's lookups, straight from the store (ids that name nothing give null). */
export function permissionLookups(services: Pick<Services, 'store'>): PermissionLookups {
  const { store } = services;
  return {
    workspaceId: async (ref) => (await store.workspaces.findByIdOrSlug(ref))?.id ?? null,
    key: (hash) => store.keys.findByHash(hash),
    guardrailWorkspace: async (id) => (await store.guardrails.findById(id))?.workspaceId ?? null,
    generation: async (id) => {
      const found = await store.ledger.findGeneration(id);
      return found === null ? null : { workspaceId: found.workspaceId, keyHash: found.keyHash };
    },
  };
}
