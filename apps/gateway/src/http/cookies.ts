import type { Request } from 'express';

/**
 * The cookies of a request as [name, value] pairs, in the order sent, values URL-decoded (a value
 * that does not decode is passed over). One reader for every cookie the gateway looks at.
 */
export function requestCookies(req: Request): Array<[string, string]> {
  const cookies: Array<[string, string]> = [];
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    try {
      cookies.push([part.slice(0, at).trim(), decodeURIComponent(part.slice(at + 1).trim())]);
    } catch {
      // not a cookie value this site set
    }
  }
  return cookies;
}
