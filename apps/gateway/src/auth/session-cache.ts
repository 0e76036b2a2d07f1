import { SUBJECTS, type SessionInfo, type SessionRevokedEvent } from '@tinkerdesk/contracts';
import { subscribeEvent } from '@tinkerdesk/nest-common';
import type { NatsConnection } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';

interface Entry {
  session: SessionInfo;
  until: number;
}

/**
 * Bearer-token checks the gateway remembers for a short time (SESSION_CACHE_TTL_MS), so a signed-in
 * call does not cost a NATS round trip to identity every time. Identity announces every session it
 * ends (identity.session.revoked: a logout, or all of a user's sessions on a password reset); every
 * gateway replica hears it and forgets those sessions at once. While this replica is cut off from
 * NATS it could miss such an event, so it forgets everything and remembers nothing until it is back.
 * Keys are SHA-256 of the tokens, never the tokens; the number of entries is bounded (oldest go first).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private connected = true;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  private static key(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('base64url');
  }

  get(token: string): SessionInfo | undefined {
    if (this.ttlMs === 0 || !this.connected) return undefined;
    const key = SessionCache.key(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.session;
  }

  set(token: string, session: SessionInfo): void {
    if (this.ttlMs === 0 || !this.connected) return;
    const key = SessionCache.key(token);
    this.entries.delete(key);
    this.entries.set(key, { session, until: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  revoke(event: SessionRevokedEvent): void {
    for (const [key, entry] of this.entries) {
      if ('sessionId' in event ? entry.session.sessionId === event.sessionId : entry.session.userId === event.userId)
        this.entries.delete(key);
    }
  }

  /** Not connected: forget everything (an event may be missed) and remember nothing until connected again. */
  setConnected(connected: boolean): void {
    this.connected = connected;
    if (!connected) this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Hears identity's revocations and follows the connection's status. */
  listen(nc: NatsConnection, prefix: string): void {
    subscribeEvent(nc, prefix, SUBJECTS.identity.sessionRevoked, (event) => this.revoke(event));
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect') this.setConnected(false);
        else if (status.type === 'reconnect') this.setConnected(true);
      }
    })();
  }
}
