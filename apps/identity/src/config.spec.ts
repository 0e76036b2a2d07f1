import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@tinkerdesk/nest-common';
import { checkConfig, oidcProviders, schema } from './config.js';

const load = (source: Record<string, string>) => loadConfig(schema, source, checkConfig);

describe('identity configuration: social sign-in', () => {
  it('enables a provider when its issuer and client id are set, in display order', () => {
    expect(oidcProviders(load({}))).toEqual([]);
    const config = load({
      OIDC_FACEBOOK_ISSUER: 'https://www.facebook.com',
      OIDC_FACEBOOK_CLIENT_ID: 'fb',
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'g',
      OIDC_GOOGLE_CLIENT_SECRET: 'g-secret',
    });
    expect(oidcProviders(config)).toEqual([
      { id: 'google', name: 'Google', issuer: 'https://accounts.google.com', clientId: 'g', clientSecret: 'g-secret' },
      { id: 'facebook', name: 'Facebook', issuer: 'https://www.facebook.com', clientId: 'fb', clientSecret: undefined },
    ]);
  });

  it('refuses a half configured provider with one line naming the variable', () => {
    expect(() => load({ OIDC_GOOGLE_ISSUER: 'https://accounts.google.com' })).toThrow(
      'Configuration error: OIDC_GOOGLE_CLIENT_ID is required when OIDC_GOOGLE_ISSUER is set',
    );
    expect(() => load({ OIDC_GITHUB_CLIENT_ID: 'x' })).toThrow(
      'Configuration error: OIDC_GITHUB_ISSUER is required when OIDC_GITHUB_CLIENT_ID is set',
    );
    expect(() => load({ OIDC_FACEBOOK_CLIENT_SECRET: 'x' })).toThrow(
      'Configuration error: OIDC_FACEBOOK_ISSUER is required when OIDC_FACEBOOK_CLIENT_SECRET is set',
    );
    expect(() => load({ OIDC_GOOGLE_ISSUER: 'accounts.google.com', OIDC_GOOGLE_CLIENT_ID: 'g' })).toThrow(
      'OIDC_GOOGLE_ISSUER must be a URL',
    );
    expect(() => load({ OIDC_GOOGLE_ISSUER: 'http://accounts.example.com', OIDC_GOOGLE_CLIENT_ID: 'g' })).toThrow(
      'Configuration error: OIDC_GOOGLE_ISSUER must use https: (plain http only for localhost or 127.0.0.1)',
    );
    expect(oidcProviders(load({ OIDC_GOOGLE_ISSUER: 'http://127.0.0.1:9400', OIDC_GOOGLE_CLIENT_ID: 'g' }))).toHaveLength(1);
    expect(() => load({ OIDC_TIMEOUT_MS: '60000' })).toThrow('OIDC_TIMEOUT_MS must be between 100 and 8000');
  });
});
