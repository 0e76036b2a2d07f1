import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, type Logger } from '@tinkerdesk/nest-common';
import type { WalletStatus } from '@tinkerdesk/contracts';

/** The variables of the wallets (apps/terminals/src/config.ts). */
export interface WalletEnv {
  GOOGLE_WALLET_ISSUER_ID: string | undefined;
  GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: string | undefined;
  GOOGLE_WALLET_SERVICE_ACCOUNT: string | undefined;
  APPLE_PASS_TYPE_ID: string | undefined;
  APPLE_TEAM_ID: string | undefined;
  APPLE_PASS_CERT_FILE: string | undefined;
  APPLE_PASS_KEY_FILE: string | undefined;
  APPLE_PASS_KEY_PASSPHRASE: string | undefined;
  APPLE_WWDR_CERT_FILE: string | undefined;
}

/** A Google Cloud service account allowed to sign "Save to Google Wallet" JWTs for the issuer. */
export interface GoogleCredentials {
  issuerId: string | undefined;
  /** Undefined when no key is configured: the JSON is made, the link is not. */
  serviceAccount: { email: string; keyId: string | undefined; privateKey: KeyObject } | undefined;
  missing: string[];
}

/** The Pass Type ID certificate and key, and Apple's WWDR intermediate certificate, as PEM. */
export interface AppleCredentials {
  passTypeIdentifier: string;
  teamIdentifier: string;
  signerCert: string;
  /** Unencrypted (PKCS#1 PEM), whatever the file was. */
  signerKey: string;
  wwdr: string;
}

export interface WalletCredentials {
  google: GoogleCredentials;
  apple: { credentials: AppleCredentials | undefined; missing: string[] };
}

export const GOOGLE_KEY_VARIABLES = 'GOOGLE_WALLET_SERVICE_ACCOUNT_FILE (or GOOGLE_WALLET_SERVICE_ACCOUNT)';

const APPLE_REQUIRED = [
  'APPLE_PASS_TYPE_ID',
  'APPLE_TEAM_ID',
  'APPLE_PASS_CERT_FILE',
  'APPLE_PASS_KEY_FILE',
  'APPLE_WWDR_CERT_FILE',
] as const;

function readText(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      variable,
      `names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}: ${path})`,
    );
  }
}

function serviceAccount(variable: string, json: string): NonNullable<GoogleCredentials['serviceAccount']> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ConfigError(variable, 'is not a service account key in JSON (as Google Cloud downloads it)');
  }
  const key = parsed as { client_email?: unknown; private_key?: unknown; private_key_id?: unknown };
  if (typeof key.client_email !== 'string' || !key.client_email.includes('@')) {
    throw new ConfigError(variable, 'has no client_email: use the JSON key of a service account');
  }
  if (typeof key.private_key !== 'string') throw new ConfigError(variable, 'has no private_key: use the JSON key of a service account');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key.private_key);
  } catch {
    throw new ConfigError(variable, 'has a private_key that is not a PEM private key');
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new ConfigError(variable, 'has a private_key that is not an RSA key (RS256 needs one)');
  return {
    email: key.client_email,
    keyId: typeof key.private_key_id === 'string' ? key.private_key_id : undefined,
    privateKey,
  };
}

function google(env: WalletEnv): GoogleCredentials {
  if (env.GOOGLE_WALLET_ISSUER_ID !== undefined && !/^\d{1,30}$/.test(env.GOOGLE_WALLET_ISSUER_ID)) {
    throw new ConfigError('GOOGLE_WALLET_ISSUER_ID', 'must be the issuer id of the Google Pay & Wallet Console (digits)');
  }
  if (env.GOOGLE_WALLET_SERVICE_ACCOUNT_FILE !== undefined && env.GOOGLE_WALLET_SERVICE_ACCOUNT !== undefined) {
    throw new ConfigError('GOOGLE_WALLET_SERVICE_ACCOUNT', 'and GOOGLE_WALLET_SERVICE_ACCOUNT_FILE are both set: set one of them');
  }
  const account =
    env.GOOGLE_WALLET_SERVICE_ACCOUNT_FILE !== undefined
      ? serviceAccount(
          'GOOGLE_WALLET_SERVICE_ACCOUNT_FILE',
          readText('GOOGLE_WALLET_SERVICE_ACCOUNT_FILE', env.GOOGLE_WALLET_SERVICE_ACCOUNT_FILE),
        )
      : env.GOOGLE_WALLET_SERVICE_ACCOUNT !== undefined
        ? serviceAccount('GOOGLE_WALLET_SERVICE_ACCOUNT', env.GOOGLE_WALLET_SERVICE_ACCOUNT)
        : undefined;
  if (account && env.GOOGLE_WALLET_ISSUER_ID === undefined) {
    throw new ConfigError('GOOGLE_WALLET_ISSUER_ID', 'is required when a Google Wallet service account is set');
  }
  const missing = [
    ...(env.GOOGLE_WALLET_ISSUER_ID === undefined ? ['GOOGLE_WALLET_ISSUER_ID'] : []),
    ...(account === undefined ? [GOOGLE_KEY_VARIABLES] : []),
  ];
  return { issuerId: env.GOOGLE_WALLET_ISSUER_ID, serviceAccount: account, missing };
}

function certificate(variable: string, pem: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new ConfigError(variable, 'is not a PEM certificate (convert a .cer with: openssl x509 -inform DER -in file.cer -out file.pem)');
  }
}

function apple(env: WalletEnv): WalletCredentials['apple'] {
  const missing = APPLE_REQUIRED.filter((v) => env[v] === undefined);
  if (missing.length === APPLE_REQUIRED.length) return { credentials: undefined, missing: [...missing] };
  // Some are set: the operator means to use Apple Wallet, so every one is needed (as the VAPID pair).
  if (missing.length > 0)
    throw new ConfigError(missing[0]!, `is required with ${APPLE_REQUIRED.filter((v) => env[v] !== undefined).join(', ')}`);
  if (!/^[A-Za-z0-9]{10}$/.test(env.APPLE_TEAM_ID!)) throw new ConfigError('APPLE_TEAM_ID', 'must be the 10-character team identifier');
  if (!/^pass\.[A-Za-z0-9.-]+$/.test(env.APPLE_PASS_TYPE_ID!)) {
    throw new ConfigError('APPLE_PASS_TYPE_ID', 'must be a Pass Type ID such as pass.com.example.tinkerdesk');
  }
  const signerCert = readText('APPLE_PASS_CERT_FILE', env.APPLE_PASS_CERT_FILE!);
  const signerKey = readText('APPLE_PASS_KEY_FILE', env.APPLE_PASS_KEY_FILE!);
  const wwdr = readText('APPLE_WWDR_CERT_FILE', env.APPLE_WWDR_CERT_FILE!);
  const signer = certificate('APPLE_PASS_CERT_FILE', signerCert);
  const intermediate = certificate('APPLE_WWDR_CERT_FILE', wwdr);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: signerKey, ...(env.APPLE_PASS_KEY_PASSPHRASE ? { passphrase: env.APPLE_PASS_KEY_PASSPHRASE } : {}) });
  } catch {
    throw new ConfigError(
      'APPLE_PASS_KEY_FILE',
      env.APPLE_PASS_KEY_PASSPHRASE
        ? 'is not a PEM private key that APPLE_PASS_KEY_PASSPHRASE opens'
        : 'is not a PEM private key (an encrypted one needs APPLE_PASS_KEY_PASSPHRASE)',
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new ConfigError('APPLE_PASS_KEY_FILE', 'is not an RSA key (Pass Type ID certificates are RSA)');
  if (!signer.checkPrivateKey(key))
    throw new ConfigError('APPLE_PASS_KEY_FILE', 'is not the key of the certificate in APPLE_PASS_CERT_FILE');
  if (!signer.checkIssued(intermediate) || !signer.verify(intermediate.publicKey)) {
    throw new ConfigError(
      'APPLE_WWDR_CERT_FILE',
      'did not issue the certificate in APPLE_PASS_CERT_FILE (use the WWDR certificate that did, e.g. G4)',
    );
  }
  return {
    credentials: {
      passTypeIdentifier: env.APPLE_PASS_TYPE_ID!,
      teamIdentifier: env.APPLE_TEAM_ID!,
      signerCert,
      // Decrypted here, in memory only: the signing library reads every format in PKCS#1.
      signerKey: key.export({ type: 'pkcs1', format: 'pem' }).toString(),
      wwdr,
    },
    missing: [],
  };
}

/**
 * Reads and checks the wallets' configuration: files that cannot be read, keys and certificates that
 * do not parse or do not belong together stop the boot with the variable named (ConfigError). A wallet
 * left unconfigured is not an error: its calls answer what is missing.
 */
export function loadWalletCredentials(env: WalletEnv): WalletCredentials {
  return { google: google(env), apple: apple(env) };
}

export function walletStatus(missing: string[]): WalletStatus {
  return { configured: missing.length === 0 };
}

/** Says in the operator's log, once at startup, which wallets are off and what to set for each. */
export function logWalletSetup(credentials: WalletCredentials, logger: Logger): void {
  for (const [wallet, missing] of [
    ['Google Wallet', credentials.google.missing],
    ['Apple Wallet', credentials.apple.missing],
  ] as const) {
    if (missing.length > 0) logger.info({ wallet, missing }, `${wallet} passes are off until these are set: ${missing.join(', ')}`);
  }
}
