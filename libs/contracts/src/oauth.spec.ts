import { describe, expect, it } from '@jest/globals';
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateOAuthAppDto } from './oauth.js';
import { OAUTH_CLIENT_ID, OAUTH_RECORD_ID } from './oauth-views.js';

const problems = (body: Record<string, unknown>): string[] =>
  validateSync(plainToInstance(CreateOAuthAppDto, body)).flatMap((e) => Object.values(e.constraints ?? {}));

const GOOD = { name: 'Shelf scanner', redirectUris: ['https://a.example/cb'], scopes: ['openid', 'profile'] };

describe('CreateOAuthAppDto lists', () => {
  it('accepts 1 to 10 redirect URIs and known scopes', () => {
    expect(problems(GOOD)).toEqual([]);
    expect(problems({ ...GOOD, redirectUris: Array.from({ length: 10 }, (_, i) => `https://a.example/cb${i}`) })).toEqual([]);
  });

  it('refuses a list by its size alone, before any item is looked at', () => {
    // 100,000 items that are each wrong: one message, about the size.
    expect(problems({ ...GOOD, redirectUris: Array.from({ length: 100_000 }, () => 42) })).toEqual([
      'redirectUris may have at most 10 URIs',
    ]);
    expect(problems({ ...GOOD, scopes: Array.from({ length: 100_000 }, () => 'admin') })).toEqual(['scopes may have at most 20 scopes']);
    expect(problems({ ...GOOD, redirectUris: [] })).toEqual(['redirectUris needs at least 1 URI']);
    expect(problems({ ...GOOD, redirectUris: 'https://a.example/cb' })).toEqual(['redirectUris must be a list']);
  });

  it('names the first wrong item of a list of a good size', () => {
    expect(problems({ ...GOOD, redirectUris: ['https://a.example/cb', 'http://a.example/cb', 7] })).toEqual([
      'redirectUris: http://a.example/cb must be https (or http on localhost, 127.0.0.1 or [::1])',
    ]);
    expect(problems({ ...GOOD, redirectUris: [`https://a.example/${'x'.repeat(2000)}`] })).toEqual([
      'redirectUris: each redirect URI may have at most 2000 characters',
    ]);
    expect(problems({ ...GOOD, scopes: ['profile', 'admin'] })).toEqual([
      'scopes: each scope must be one of: openid, email, profile, terminals, convert, passes',
    ]);
  });
});

describe('ids of OAuth records and clients', () => {
  it('are base64url up to 128 characters, and UUIDs: never NUL, never longer', () => {
    expect(OAUTH_RECORD_ID.test('a'.repeat(64))).toBe(true);
    expect(OAUTH_RECORD_ID.test('Ab-_09')).toBe(true);
    for (const bad of ['', 'a'.repeat(129), 'a\u0000b', '%00', 'a b', 'ü', 'a.b']) expect(OAUTH_RECORD_ID.test(bad)).toBe(false);
    expect(OAUTH_CLIENT_ID.test('4f1c1c9e-7c57-4c8e-9b57-0c9b1f4b6a11')).toBe(true);
    expect(OAUTH_CLIENT_ID.test(`4f1c1c9e-7c57-4c8e-9b57-0c9b1f4b6a11${'x'.repeat(200)}`)).toBe(false);
  });
});
