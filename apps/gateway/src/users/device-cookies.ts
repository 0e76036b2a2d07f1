import { DEVICE_COOKIE_PREFIX, type DeviceCookie } from '@tinkerdesk/contracts';
import type { Request, Response } from 'express';
import { requestCookies } from '../http/cookies.js';

/** At most this many device cookies are passed on (a browser signed in to that many accounts before). */
const MAX_DEVICE_COOKIES = 10;
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The device cookies a browser sent with its sign-in (OWASP's device cookies): the tokens of the
 * accounts it signed in to before. Only well-formed ones, at most 10; identity decides which is live.
 */
export function deviceTokens(req: Request): string[] {
  return requestCookies(req)
    .filter(([name, value]) => name.startsWith(DEVICE_COOKIE_PREFIX) && TOKEN.test(value))
    .slice(0, MAX_DEVICE_COOKIES)
    .map(([, value]) => value);
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
