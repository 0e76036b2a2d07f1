import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { ConfigError, type Logger } from '@tinkerdesk/nest-common';
import { GOOGLE_KEY_VARIABLES, loadWalletCredentials, logWalletSetup, type WalletEnv } from './wallet-credentials.js';
import { Wallets, type WalletPass } from './wallets.js';

const NONE: WalletEnv = {
  GOOGLE_WALLET_ISSUER_ID: undefined,
  GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: undefined,
  GOOGLE_WALLET_SERVICE_ACCOUNT: undefined,
  APPLE_PASS_TYPE_ID: undefined,
  APPLE_TEAM_ID: undefined,
  APPLE_PASS_CERT_FILE: undefined,
  APPLE_PASS_KEY_FILE: undefined,
  APPLE_PASS_KEY_PASSPHRASE: undefined,
  APPLE_WWDR_CERT_FILE: undefined,
};

const PASS: WalletPass = {
  id: 'a6c1f1de-8e0c-4f35-9d53-7b1f4cbd1d6a',
  cardTitle: 'T',
  header: 'H',
  textRows: [],
  backgroundColor: '#ffffff',
};

const wallets = (env: Partial<WalletEnv>) =>
  new Wallets({
    credentials: loadWalletCredentials({ ...NONE, ...env }),
    publicUrl: 'https://example.com',
    organizationName: 'Tinkerdesk',
  });

/** The variable a configuration error names. */
function refused(env: Partial<WalletEnv>): string | undefined {
  try {
    loadWalletCredentials({ ...NONE, ...env });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).variable;
  }
}

describe('wallets without configuration', () => {
  it("answer only that they are off, and name what is missing in the operator's log alone", () => {
    expect(wallets({}).config()).toEqual({ google: { configured: false }, apple: { configured: false } });
    const lines: { fields: unknown; message: string }[] = [];
    const logger = { info: (fields: unknown, message: string) => lines.push({ fields, message }) } as unknown as Logger;
    logWalletSetup(loadWalletCredentials(NONE), logger);
    expect(lines).toEqual([
      {
        fields: { wallet: 'Google Wallet', missing: ['GOOGLE_WALLET_ISSUER_ID', GOOGLE_KEY_VARIABLES] },
        message: `Google Wallet passes are off until these are set: GOOGLE_WALLET_ISSUER_ID, ${GOOGLE_KEY_VARIABLES}`,
      },
      {
        fields: {
          wallet: 'Apple Wallet',
          missing: ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT_FILE', 'APPLE_PASS_KEY_FILE', 'APPLE_WWDR_CERT_FILE'],
        },
        message: expect.stringContaining('Apple Wallet passes are off until these are set: APPLE_PASS_TYPE_ID, APPLE_TEAM_ID'),
      },
    ]);
  });

  it('still make the Google JSON, with a placeholder issuer or the configured one, and no link', async () => {
    expect(await wallets({}).google(PASS)).toMatchObject({
      configured: false,
      saveUrl: null,
      genericClass: { id: 'ISSUER_ID.tinkerdesk_generic' },
      genericObject: { id: `ISSUER_ID.${PASS.id}`, classId: 'ISSUER_ID.tinkerdesk_generic', state: 'ACTIVE' },
    });
    const partly = await wallets({ GOOGLE_WALLET_ISSUER_ID: '123' }).google(PASS);
    expect(partly).not.toHaveProperty('missing');
    expect(partly).toMatchObject({
      configured: false,
      saveUrl: null,
      genericObject: { id: `123.${PASS.id}` },
    });
  });

  it('answer UNAVAILABLE for Apple, without naming the configuration', async () => {
    const error = await wallets({})
      .apple(PASS, { logo: null, hero: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', detail: 'Apple Wallet passes are not set up on this server' });
  });
});

describe('wallet configuration checked at boot', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-config-'));
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const account = JSON.stringify({ client_email: 'a@b.iam.gserviceaccount.com', private_key: key });

  it('names the variable of each mistake', () => {
    expect(refused({ GOOGLE_WALLET_ISSUER_ID: 'abc' })).toBe('GOOGLE_WALLET_ISSUER_ID');
    expect(refused({ GOOGLE_WALLET_SERVICE_ACCOUNT: account })).toBe('GOOGLE_WALLET_ISSUER_ID');
    expect(refused({ GOOGLE_WALLET_ISSUER_ID: '1', GOOGLE_WALLET_SERVICE_ACCOUNT: '{"client_email": 1}' })).toBe(
      'GOOGLE_WALLET_SERVICE_ACCOUNT',
    );
    expect(refused({ GOOGLE_WALLET_ISSUER_ID: '1', GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: join(dir, 'missing.json') })).toBe(
      'GOOGLE_WALLET_SERVICE_ACCOUNT_FILE',
    );
    expect(
      refused({
        GOOGLE_WALLET_ISSUER_ID: '1',
        GOOGLE_WALLET_SERVICE_ACCOUNT: account,
        GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: join(dir, 'a.json'),
      }),
    ).toBe('GOOGLE_WALLET_SERVICE_ACCOUNT');
    expect(refused({ APPLE_PASS_TYPE_ID: 'pass.com.example' })).toBe('APPLE_TEAM_ID');
    writeFileSync(join(dir, 'not-a-cert.pem'), 'hello');
    expect(
      refused({
        APPLE_PASS_TYPE_ID: 'pass.com.example',
        APPLE_TEAM_ID: 'ABCDE12345',
        APPLE_PASS_CERT_FILE: join(dir, 'not-a-cert.pem'),
        APPLE_PASS_KEY_FILE: join(dir, 'not-a-cert.pem'),
        APPLE_WWDR_CERT_FILE: join(dir, 'not-a-cert.pem'),
      }),
    ).toBe('APPLE_PASS_CERT_FILE');
  });

  it('accepts a service account key inline or in a file', async () => {
    writeFileSync(join(dir, 'account.json'), account);
    for (const env of [{ GOOGLE_WALLET_SERVICE_ACCOUNT: account }, { GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: join(dir, 'account.json') }]) {
      const google = await wallets({ GOOGLE_WALLET_ISSUER_ID: '1', ...env }).google(PASS);
      expect(google).toMatchObject({
        configured: true,
        saveUrl: expect.stringMatching(/^https:\/\/pay\.google\.com\/gp\/v\/save\/ey/),
      });
    }
  });
});
