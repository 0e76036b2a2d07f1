import { ApiError, NetworkError } from '../api';
import type { AppNotification, AppPrompt, AuthResult, Platform, Profile, PromptButton, SessionState } from './types';

/** What the store needs from the outside world; the browser wiring is in session.ts, tests pass fakes. */
export interface SessionDeps {
  /** GET /v1/users/me?include=services with the token. */
  fetchProfile(token: string): Promise<Profile>;
  /** POST /v1/users/{guid}/logout; a new session when the ended one was an impersonation. */
  endSession(guid: string, token: string): Promise<AuthResult | null>;
  /** POST /v1/codes/{code}/exchange. */
  exchangeCode(code: string): Promise<AuthResult>;
  /** The stored token (the cookie, else the local database). */
  loadToken(): Promise<string | null>;
  /** 'login' message: keep the token (local database and cookies token and loggedIn). */
  saveToken(token: string): Promise<void>;
  /** 'logout' message: forget the token and clear the cookies. */
  clearToken(): Promise<void>;
  platform(): Platform;
  /** Tells other tabs of this browser; they follow (sign in or out) without a reload. */
  broadcast?(message: { type: 'login'; token: string } | { type: 'logout' }): void;
  newId(): string;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /**
   * True once the page is being left (a navigation or reload): the browser then cancels the page's
   * requests, which fail like a network failure but say nothing about the network or the session.
   */
  leaving?(): boolean;
}

/** Codes that mean the stored session is gone for good (docs/web-app.md#session-and-local-database): drop it. */
export const SESSION_GONE = new Set(['INVALID_TOKEN', 'IDENTIFIER_NOT_FOUND']);
/** Waits before asking for the profile again after UNAVAILABLE (then the failure stands). */
export const PROFILE_RETRY_MS = [500, 1000, 2000];
/** Readiness polling interval (docs/web-app.md#session-and-local-database). */
export const READY_POLL_MS = 100;

export type LogoutOutcome = 'ended' | 'replaced';

/**
 * The session state machine (docs/web-app.md#session-and-local-database): starts logged out; logged in after sign-in, sign-up,
 * a code exchange, or a stored token that refreshes. A refresh failing with INVALID_TOKEN or
 * IDENTIFIER_NOT_FOUND clears the token and cookies; UNAVAILABLE is asked again a few times
 * (PROFILE_RETRY_MS); any other server failure marks logged out but keeps the token; a network failure clears the token. 'ready' after that startup check.
 */
export class SessionStore {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Map<string, unknown>();
  private readonly promptAnswers = new Map<string, (value: string | undefined) => void>();
  private started: Promise<void> | undefined;
  /** Bumped by every sign-in and sign-out so that a refresh that started earlier cannot undo it. */
  private generation = 0;

  constructor(private readonly deps: SessionDeps) {
    this.state = {
      token: null,
      loggedIn: false,
      active: false,
      notifications: [],
      prompts: [],
      ready: false,
      platform: deps.platform(),
      context: {},
      profile: null,
      verified: false,
    };
  }

  getState = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** The startup check; runs once however often it is called. */
  start(): Promise<void> {
    this.started ??= this.restore()
      .catch((error: unknown) => console.warn('session check failed', error))
      .finally(() => this.set({ ready: true }));
    return this.started;
  }

  private async restore(): Promise<void> {
    const token = await this.deps.loadToken().catch(() => null);
    if (!token) return;
    await this.refresh(token);
  }

  /** Re-reads the profile with the given (or current) token and applies the state machine's rules. */
  async refresh(token = this.state.token): Promise<void> {
    if (!token) return;
    const generation = this.generation;
    try {
      const profile = await this.fetchProfilePatiently(token, generation);
      if (generation !== this.generation) return;
      this.set(this.loggedInState(token, profile, profile.verified ?? false));
    } catch (error) {
      if (generation !== this.generation) return;
      if (error instanceof ApiError && !SESSION_GONE.has(error.error)) {
        // The server answered but could not confirm the session now: logged out, token kept for later.
        this.set({ ...this.loggedOutState(), token });
        return;
      }
      // A request cut because the page is being left is no network failure: clearing the token (and its
      // cookie) now would sign out the page being opened.
      if (error instanceof NetworkError && this.deps.leaving?.()) return;
      if (error instanceof ApiError || error instanceof NetworkError) {
        await this.forget();
        return;
      }
      throw error;
    }
  }

  /**
   * The profile, asked again after UNAVAILABLE (a busy or restarting server, not an answer about the
   * session) at PROFILE_RETRY_MS intervals, so that a moment of load does not show a signed-in visitor as
   * signed out. Any other failure, or the last UNAVAILABLE, is thrown to the state machine.
   */
  private async fetchProfilePatiently(token: string, generation: number): Promise<Profile> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.deps.fetchProfile(token);
      } catch (error) {
        const delay = PROFILE_RETRY_MS[attempt];
        if (!(error instanceof ApiError) || error.error !== 'UNAVAILABLE' || delay === undefined || generation !== this.generation)
          throw error;
        await new Promise<void>((resolve) => this.deps.setTimer(resolve, delay));
      }
    }
  }

  private loggedInState(token: string, profile: Profile, verified: boolean): Partial<SessionState> {
    return { token, loggedIn: true, active: profile.active, profile, verified, context: profile.context ?? {} };
  }

  private loggedOutState(): Partial<SessionState> {
    return { token: null, loggedIn: false, active: false, profile: null, verified: false, context: {} };
  }

  private async forget(): Promise<void> {
    this.generation += 1;
    this.set(this.loggedOutState());
    await this.deps.clearToken().catch(() => undefined);
  }

  /** After sign-in, sign-up or a code exchange. */
  async login(result: AuthResult, options: { broadcast?: boolean } = {}): Promise<void> {
    this.generation += 1;
    this.set({ ...this.loggedInState(result.token, result.profile, result.verified), ready: true });
    await this.deps.saveToken(result.token).catch(() => undefined);
    if (options.broadcast !== false) this.deps.broadcast?.({ type: 'login', token: result.token });
  }

  /** Another tab signed in: adopt its token. */
  async adopt(token: string): Promise<void> {
    if (token !== this.state.token) await this.refresh(token);
  }

  /** Another tab signed out. */
  dropped(): void {
    this.generation += 1;
    if (this.state.loggedIn || this.state.token) this.set(this.loggedOutState());
  }

  /**
   * Ends the session on the server, then locally. When the server returns a new session (the end of
   * an impersonation) the store switches to it and answers 'replaced'.
   */
  async logout(): Promise<LogoutOutcome> {
    const { profile, token } = this.state;
    let next: AuthResult | null = null;
    if (profile && token) {
      try {
        next = await this.deps.endSession(profile.guid, token);
      } catch {
        // Already ended, or unreachable: the local session ends either way.
      }
    }
    if (next) {
      await this.login(next);
      return 'replaced';
    }
    await this.forget();
    this.deps.broadcast?.({ type: 'logout' });
    return 'ended';
  }

  async exchangeCode(code: string): Promise<void> {
    await this.login(await this.deps.exchangeCode(code));
  }

  setProfile(profile: Profile): void {
    this.set({ profile: { ...this.state.profile, ...profile }, active: profile.active, verified: profile.verified ?? this.state.verified });
  }

  /** Resolves once the startup check has finished, polling every 100 ms (READY_POLL_MS). */
  whenReady(): Promise<void> {
    return new Promise((resolve) => {
      const poll = () => (this.state.ready ? resolve() : this.deps.setTimer(poll, READY_POLL_MS));
      poll();
    });
  }

  /** Shows a notification; one with the same tag replaces the earlier one. Answers its id. */
  notify(input: Omit<AppNotification, 'id' | 'tag'> & { tag?: string }): string {
    const id = this.deps.newId();
    const notification: AppNotification = { close: true, ...input, id, tag: input.tag ?? id };
    const replaced = this.state.notifications.filter((n) => n.tag === notification.tag);
    for (const old of replaced) this.cancelTimer(old.id);
    this.set({ notifications: [...this.state.notifications.filter((n) => n.tag !== notification.tag), notification] });
    if (notification.timeout && notification.timeout > 0) {
      this.timers.set(
        id,
        this.deps.setTimer(() => this.dismiss(id), notification.timeout),
      );
    }
    return id;
  }

  dismiss(id: string): void {
    this.cancelTimer(id);
    if (this.state.notifications.some((n) => n.id === id)) {
      this.set({ notifications: this.state.notifications.filter((n) => n.id !== id) });
    }
  }

  private cancelTimer(id: string): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) this.deps.clearTimer(timer);
    this.timers.delete(id);
  }

  /** Asks the user; resolves with the chosen button's value, or undefined when closed. Same tag replaces. */
  prompt(input: { tag?: string; title: string; content: string; buttons: PromptButton[]; close?: boolean }): Promise<string | undefined> {
    const id = this.deps.newId();
    const prompt: AppPrompt = { close: true, ...input, id, tag: input.tag ?? id };
    for (const old of this.state.prompts.filter((p) => p.tag === prompt.tag)) this.answer(old.id, undefined);
    this.set({ prompts: [...this.state.prompts, prompt] });
    return new Promise((resolve) => this.promptAnswers.set(id, resolve));
  }

  answer(id: string, value: string | undefined): void {
    this.promptAnswers.get(id)?.(value);
    this.promptAnswers.delete(id);
    this.set({ prompts: this.state.prompts.filter((p) => p.id !== id) });
  }
}
