import { IDENTITY_SNAPSHOT_RPC, IdentitySnapshotRequest } from '@aict/contracts';
import type { Bus } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { identitySnapshot } from '../domain/identity-snapshot';

/** Serves `auth.identity-snapshot` (request/reply) for the gateways' start-up. */
export function serveIdentitySnapshot(bus: Bus, deps: AuthDeps) {
  return bus.serve(IDENTITY_SNAPSHOT_RPC, IdentitySnapshotRequest.nullish(), () =>
    identitySnapshot(deps),
  );
}
