import { SUBJECTS, type SessionInfo, type SessionRevokedEvent } from '@tinkerdesk/contracts';
import { subscribeEvent } from '@tinkerdesk/nest-common';
import type { NatsConnection } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';
import { TtlCache } from './ttl-cache.js';

/**
 * Bearer-token checks the gateway remembers for a short time (SESSION_CACHE_TTL_MS), so a signed-in
 * call does not cost a NATS round trip to identity every time. Identity announces every session it
 * ends (identity.session.revoked: a logout, or all of a user's sessions on a password reset); every
 * gateway replica hears it and forgets those sessions at once. Cut off from NATS, it remembers nothing
 * (TtlCache). Keys are SHA-256 of the tokens, never the tokens; the number of entries is bounded.
 */
export class SessionCache {
  private readonly cache: TtlCache<SessionInfo>;

  constructor(ttlMs: number, maxEntries = 50_000, now: () => number = Date.now) {
    this.cache = new TtlCache(ttlMs, maxEntries, now);
  }

  private static key(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('base64url');
  }

  get(token: string): SessionInfo | undefined {
    return this.cache.get(SessionCache.key(token));
  }

  set(token: string, session: SessionInfo): void {
    this.cache.set(SessionCache.key(token), session);
  }

  revoke(event: SessionRevokedEvent): void {
    this.cache.deleteWhere((session) => ('sessionId' in event ? session.sessionId === event.sessionId : session.userId === event.userId));
  }

  setConnected(connected: boolean): void {
    this.cache.setConnected(connected);
  }

  get size(): number {
    return this.cache.size;
  }

  /** Hears identity's revocations. */
  listen(nc: NatsConnection, prefix: string): void {
    subscribeEvent(nc, prefix, SUBJECTS.identity.sessionRevoked, (event) => this.revoke(event));
  }
}
