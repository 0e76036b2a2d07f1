import { DEVICE_COOKIE_PREFIX, type DeviceCookie } from '@tinkerdesk/contracts';
import type { Request, Response } from 'express';

/** At most this many device cookies are passed on (a browser signed in to that many accounts before). */
const MAX_DEVICE_COOKIES = 10;
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The device cookies a browser sent with its sign-in (OWASP's device cookies): the tokens of the
 * accounts it signed in to before. Only well-formed ones, at most 10; identity decides which is live.
 */
export function deviceTokens(req: Request): string[] {
  const tokens: string[] = [];
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name.startsWith(DEVICE_COOKIE_PREFIX) && TOKEN.test(value)) tokens.push(value);
    if (tokens.length === MAX_DEVICE_COOKIES) break;
  }
  return tokens;
}

/**
 * Keeps the device cookie: HttpOnly (no script reads it), SameSite=Strict, sent only to the account
 * routes (/v1/users), Secure whenever the request came over https.
 */
export function setDeviceCookie(req: Request, res: Response, device: DeviceCookie): void {
  res.cookie(device.name, device.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: '/v1/users',
    maxAge: device.maxAgeSeconds * 1000,
  });
}
