import type { TerminalPlatform } from '@tinkerdesk/contracts/web';
import { ApiError } from '../../shared/api';
import { DETAILS_SEPARATOR } from '../../shared/error-sentences';
import { handleStorageMessage, kvDelete, kvGet, KV_KEYS } from '../../shared/storage/db';
import { getPushKey, removeSubscription, saveSubscription } from './api';

/** This browser's terminal, as the local database keeps it (its 'terminal' message: docs/web-app.md#session-and-local-database). */
export interface LocalTerminal {
  terminalId: string;
  terminalToken: string;
}

export async function localTerminal(): Promise<LocalTerminal | null> {
  const [terminalId, terminalToken] = await Promise.all([kvGet<string>(KV_KEYS.terminalId), kvGet<string>(KV_KEYS.terminalToken)]);
  return terminalId && terminalToken ? { terminalId, terminalToken } : null;
}

export function rememberTerminal(terminal: LocalTerminal): Promise<void> {
  return handleStorageMessage({ type: 'terminal', ...terminal });
}

export async function forgetTerminal(): Promise<void> {
  await Promise.all([kvDelete(KV_KEYS.terminalId), kvDelete(KV_KEYS.terminalToken)]);
}

/** A default name for this browser: "Chrome on Android". */
export function defaultLabel(): string {
  const ua = navigator.userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux|X11/.test(ua)
            ? 'Linux'
            : 'this device';
  return `${browser} on ${os}`;
}

export const platformOf = (mobile: boolean): TerminalPlatform => (mobile ? 'Browser (mobile)' : 'Browser (desktop)');

/** What this browser can do, for the terminal's capabilities. */
export function capabilities(): string[] {
  const list: string[] = [];
  if ('serviceWorker' in navigator && 'PushManager' in window) list.push('push');
  if ('Notification' in window) list.push('notifications');
  if ('bluetooth' in navigator) list.push('bluetooth');
  list.push('share-target');
  return list;
}

/** The push errors (docs/web-app.md#forms-and-error-texts): the spec's texts, said in a sentence by `pushErrorText`. */
export class PushError extends Error {
  constructor(
    readonly code: 'UNAVAILABLE' | 'DENIED',
    message: string,
  ) {
    super(message);
  }
}

/** Why push cannot be turned on, and what to do, in a sentence; the spec's text stays on the details line. */
const PUSH_SENTENCES: Record<PushError['code'], string> = {
  DENIED:
    'This browser blocks notifications from this site. Allow them in its site settings (the icon beside the address), then turn push on again.',
  UNAVAILABLE:
    'This browser cannot get push notifications here (it may not support them, or a private window may block them). Shares still arrive in the inbox.',
};

export const pushErrorText = (error: PushError): string => `${PUSH_SENTENCES[error.code]}${DETAILS_SEPARATOR}${error.message}`;

const unavailable = () => new PushError('UNAVAILABLE', 'push notifications unavailable');

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) throw unavailable();
  // The worker precaches the site on its first install, which takes a while on a slow device or network.
  const ready = await Promise.race([navigator.serviceWorker.ready, new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
  if (!ready) throw unavailable();
  return ready;
}

/** Whether this browser has a push subscription now (read at start: docs/web-app.md#terminals-in-the-browser). */
export async function pushSubscribed(): Promise<boolean> {
  try {
    return (await (await registration()).pushManager.getSubscription()) !== null;
  } catch {
    return false;
  }
}

/** Subscribes this browser to push and stores the subscription on its terminal. */
export async function subscribePush(terminal: LocalTerminal): Promise<void> {
  // A refused permission is known at once: say so before waiting for the service worker.
  if ('Notification' in window) {
    const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (permission === 'denied') throw new PushError('DENIED', 'permission denied');
  }
  const reg = await registration();
  let key: string;
  try {
    key = (await getPushKey()).publicKey;
  } catch (error) {
    if (error instanceof ApiError) throw unavailable();
    throw error;
  }
  let subscription: PushSubscription;
  try {
    subscription = await Promise.race([
      reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }),
      new Promise<never>((_, reject) => setTimeout(() => reject(unavailable()), 15_000)),
    ]);
  } catch (error) {
    if (error instanceof PushError) throw error;
    if (error instanceof DOMException && error.name === 'NotAllowedError') throw new PushError('DENIED', 'permission denied');
    throw unavailable();
  }
  await saveSubscription(terminal.terminalToken, terminal.terminalId, subscription.toJSON());
}

export async function unsubscribePush(terminal: LocalTerminal): Promise<void> {
  try {
    const current = await (await registration()).pushManager.getSubscription();
    await current?.unsubscribe();
  } finally {
    await removeSubscription(terminal.terminalToken, terminal.terminalId);
  }
}
