import { digestToken } from './domain/keys/tokens.js';
import type { Services } from './services.js';
import { asSystem } from './domain/audit/record.js';

export interface BootstrapResult {
  /** Set only when this start created a management key the operator has never seen. */
  createdToken: string | null;
  managementKeyHash: string | null;
}

async function retryOnce<T>(fn: () => Promise<T>, recheck: () => Promise<T | null>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    // Another replica starting at the same moment may have won the race; its row is as good.
    const existing = await recheck();
    if (existing !== null) return existing;
    throw error;
  }
}

/**
 * Makes the store usable: the default workspace exists, an owner member exists, and a management
 * key exists (exactly `SWITCHYARD_MANAGEMENT_KEY` when that is set). Idempotent. The CLI passes
 * `createFirstKey: false`: a key it created silently would never be shown to anyone.
 */
export async function bootstrap(
  services: Services,
  options: { managementKey: string | null; ownerEmail: string; createFirstKey?: boolean },
): Promise<BootstrapResult> {
  const { store } = services;
  await retryOnce(
    () => services.workspaces.ensureDefault(asSystem),
    () => store.workspaces.findDefault(),
  );

  const ensureOwner = async () => {
    const existing = await store.members.findByEmail(options.ownerEmail.toLowerCase());
    if (existing !== null) return existing;
    return retryOnce(
      () => services.members.add({ email: options.ownerEmail, firstName: 'Owner', role: 'org:admin' }, asSystem),
      () => store.members.findByEmail(options.ownerEmail.toLowerCase()),
    );
  };

  if (options.managementKey !== null) {
    const token = options.managementKey;
    const existing = await store.keys.findByDigest(digestToken(token));
    if (existing !== null) {
      if (existing.kind !== 'management') {
        throw new Error('SWITCHYARD_MANAGEMENT_KEY is the token of an API key, not of a management key');
      }
      return { createdToken: null, managementKeyHash: existing.hash };
    }
    const owner = await ensureOwner();
    const issued = await retryOnce(
      () => services.keys.createManagementKey({ name: 'bootstrap', memberId: owner.id, token }, asSystem),
      async () => {
        const record = await store.keys.findByDigest(digestToken(token));
        return record === null ? null : { record, token };
      },
    );
    return { createdToken: null, managementKeyHash: issued.record.hash };
  }

  const owner = await ensureOwner();
  if (options.createFirstKey === false || (await store.keys.listManagement()).length > 0) {
    return { createdToken: null, managementKeyHash: null };
  }
  const issued = await services.keys.createManagementKey({ name: 'bootstrap', memberId: owner.id }, asSystem);
  return { createdToken: issued.token, managementKeyHash: issued.record.hash };
}
