import type { Clock } from './domain/common/clock.js';
import { KeyAuthenticator } from './domain/keys/authenticator.js';
import { KeyService } from './domain/keys/service.js';
import { zeroUsageReader, type KeyUsageReader } from './domain/keys/usage.js';
import { MemberService } from './domain/members/service.js';
import { WorkspaceService } from './domain/workspaces/service.js';
import type { Store } from './store/index.js';

/** Everything the HTTP layer and the CLI call, built once over one store. */
export interface Services {
  store: Store;
  clock: Clock;
  authenticator: KeyAuthenticator;
  keys: KeyService;
  members: MemberService;
  workspaces: WorkspaceService;
  usage: KeyUsageReader;
}

export function createServices(options: { store: Store; clock: Clock; keyCacheRevalidateMs: number }): Services {
  const { store, clock } = options;
  const authenticator = new KeyAuthenticator({
    keys: store.keys,
    clock,
    externalChangeMarker: () => store.externalChangeMarker(),
    revalidateAfterMs: options.keyCacheRevalidateMs,
  });
  return {
    store,
    clock,
    authenticator,
    keys: new KeyService({ keys: store.keys, members: store.members, workspaces: store.workspaces, authenticator, clock }),
    members: new MemberService({ members: store.members, clock }),
    workspaces: new WorkspaceService({
      workspaces: store.workspaces,
      members: store.members,
      keys: store.keys,
      clock,
      transaction: (fn) => store.withTransaction(fn),
    }),
    usage: zeroUsageReader,
  };
}
