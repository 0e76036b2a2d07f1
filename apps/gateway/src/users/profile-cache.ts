import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS, type AccountView, type Profile } from '@tinkerdesk/contracts';
import type { RpcClient } from '@tinkerdesk/nest-common';
import { subscribeEvent } from '@tinkerdesk/nest-common';
import { TtlCache } from '../auth/ttl-cache.js';

/**
 * The profiles `GET /v1/users/me` answered, remembered per user for a short time
 * (PROFILE_CACHE_TTL_MS), so the hot path answers from the gateway without a round trip to identity.
 * Identity announces every change of what `me` answers (identity.user.changed) and every password
 * reset (identity.session.revoked for a user); every replica forgets that user's profile at once, and
 * the replica that carried an update forgets it before answering. Cut off from NATS, it remembers
 * nothing (TtlCache).
 */
export class ProfileCache {
  private readonly cache: TtlCache<Profile>;
  /** Counts every forgetting: a profile read before one (it may be older than the change) is not kept. */
  private epoch = 0;

  constructor(ttlMs: number, maxEntries = 50_000, now: () => number = Date.now) {
    this.cache = new TtlCache(ttlMs, maxEntries, now);
  }

  get(userId: string): Profile | undefined {
    return this.cache.get(userId);
  }

  /** Where a read of identity starts: hand it to `set` with what the read answered. */
  mark(): number {
    return this.epoch;
  }

  /** Keeps `profile` unless a change was announced since the read began at `mark`. */
  set(userId: string, profile: Profile, mark: number): void {
    if (mark === this.epoch) this.cache.set(userId, profile);
  }

  /** The remembered profile, or the one `load` reads (remembered unless a change raced the read). */
  async getOrLoad(userId: string, load: (userId: string) => Promise<Profile>): Promise<Profile> {
    const known = this.get(userId);
    if (known) return known;
    const mark = this.mark();
    const profile = await load(userId);
    this.set(userId, profile, mark);
    return profile;
  }

  forget(userId: string): void {
    this.epoch++;
    this.cache.delete(userId);
  }

  setConnected(connected: boolean): void {
    this.epoch++;
    this.cache.setConnected(connected);
  }

  get size(): number {
    return this.cache.size;
  }

  /** Hears identity's announcements. */
  listen(nc: NatsConnection, prefix: string): void {
    subscribeEvent(nc, prefix, SUBJECTS.identity.userChanged, (event) => this.forget(event.userId));
    subscribeEvent(nc, prefix, SUBJECTS.identity.sessionRevoked, (event) => {
      if ('userId' in event) this.forget(event.userId);
    });
  }
}

/**
 * What `GET /v1/users/me` answers for a user: the profile, remembered by this gateway (ProfileCache) or
 * read from identity, and with `services` the provider services (from commerce) read beside it. Also
 * what a signed-in visitor's /account is painted from (web/account-page.ts).
 */
export async function accountOf(rpc: RpcClient, profiles: ProfileCache, userId: string, services: boolean): Promise<AccountView> {
  const [profile, list] = await Promise.all([
    profiles.getOrLoad(userId, (id) => rpc.send(SUBJECTS.identity.userMe, { userId: id })),
    services ? rpc.send(SUBJECTS.commerce.serviceList, { userId }) : undefined,
  ]);
  return { ...profile, ...(list ? { services: list } : {}) };
}
