import { Inject, Injectable } from '@nestjs/common';
import { canonicalTimeZone, SUBJECTS } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import type { AuthenticatedSession } from '../auth/bearer.guard.js';
import { ProfileCache } from '../users/profile-cache.js';

/** Calls that reach a payment provider (open, confirm, close a pay page; refund) may take a while: Stripe answers within seconds. */
export const PROVIDER_TIMEOUT_MS = 20_000;

/** Who looks at an order: their id when signed in, and the time zone its dates are written in. */
@Injectable()
export class Viewers {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(ProfileCache) private readonly profiles: ProfileCache,
  ) {}

  /** Signed in: the profile's time zone; otherwise the `tz` asked for (an IANA name), else UTC. */
  async of(session: AuthenticatedSession | undefined, tz?: string): Promise<{ viewerId?: string; timeZone: string }> {
    if (!session) return { timeZone: (tz && canonicalTimeZone(tz)) || 'UTC' };
    return { viewerId: session.userId, timeZone: (await this.profileZone(session)) ?? 'UTC' };
  }

  /** The signed-in user's profile time zone; undefined when the profile has none. */
  async profileZone(session: AuthenticatedSession): Promise<string | undefined> {
    const profile = await this.profiles.getOrLoad(session.userId, (userId) => this.rpc.send(SUBJECTS.identity.userMe, { userId }));
    return profile.tz || undefined;
  }
}
