import { AppError, PASS_IMAGE_STORED_MAX_BYTES, type PassGoogleView, type WalletConfigView } from '@tinkerdesk/contracts';
import {
  APPLE_BARCODES,
  appleGenericDesign,
  appleShowsBarcode,
  GOOGLE_ISSUER_PLACEHOLDER,
  GOOGLE_SAVE_URL,
  googleGenericClass,
  googleGenericObject,
  googleSaveClaims,
  type WalletPassFields,
} from '@tinkerdesk/tools/wallet-pass';
import { SignJWT } from 'jose';
import { PKPass } from 'passkit-generator';
import sharp, { type Sharp } from 'sharp';
import { walletStatus, type WalletCredentials } from './wallet-credentials.js';

/** The GenericClass every pass of the site belongs to (one per issuer). */
export const GENERIC_CLASS_SUFFIX = 'tinkerdesk_generic';

export const WALLETS = Symbol('WALLETS');

export interface WalletSettings {
  credentials: WalletCredentials;
  /** PUBLIC_URL: where images are served and where the save button is shown. */
  publicUrl: string;
  organizationName: string;
}

/** A pass with its identity and the public URLs of its images. */
export interface WalletPass extends WalletPassFields {
  id: string;
  logoUrl?: string;
  heroUrl?: string;
}

/** The pictures of an Apple pass, from the stored PNGs (any may be missing). */
export interface ApplePictures {
  logo: Buffer | null;
  hero: Buffer | null;
}

/**
 * Google Wallet and Apple Wallet: the "Save to Google Wallet" link (a JWT signed RS256 with the
 * issuer's service account) and the signed .pkpass of Apple Wallet (passkit-generator: manifest of
 * SHA-1 hashes, PKCS#7 detached signature with the Pass Type ID certificate and Apple's WWDR).
 */
export class Wallets {
  constructor(private readonly settings: WalletSettings) {}

  config(): WalletConfigView {
    return {
      google: walletStatus(this.settings.credentials.google.missing),
      apple: walletStatus(this.settings.credentials.apple.missing),
    };
  }

  async google(pass: WalletPass, now: Date = new Date()): Promise<PassGoogleView> {
    const { issuerId, serviceAccount, missing } = this.settings.credentials.google;
    const issuer = issuerId ?? GOOGLE_ISSUER_PLACEHOLDER;
    const genericClass = googleGenericClass(issuer, GENERIC_CLASS_SUFFIX);
    const genericObject = googleGenericObject(pass, {
      issuerId: issuer,
      objectSuffix: pass.id,
      classId: genericClass.id,
      ...(pass.logoUrl ? { logoUrl: pass.logoUrl } : {}),
      ...(pass.heroUrl ? { heroUrl: pass.heroUrl } : {}),
    });
    let saveUrl: string | null = null;
    if (serviceAccount && issuerId) {
      const claims = googleSaveClaims({
        serviceAccountEmail: serviceAccount.email,
        origins: [new URL(this.settings.publicUrl).origin],
        issuedAt: Math.floor(now.getTime() / 1000),
        classes: [genericClass],
        objects: [genericObject],
      });
      const jwt = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(serviceAccount.keyId ? { kid: serviceAccount.keyId } : {}) })
        .sign(serviceAccount.privateKey);
      saveUrl = `${GOOGLE_SAVE_URL}${jwt}`;
    }
    return { ...walletStatus(missing), saveUrl, genericClass, genericObject };
  }

  /** The signed .pkpass of a pass; UNAVAILABLE without Apple's configuration, UNPROCESSABLE for a barcode Apple does not show. */
  async apple(pass: WalletPass, pictures: ApplePictures): Promise<Buffer> {
    const { credentials } = this.settings.credentials.apple;
    // What is missing is in the operator's log (logWalletSetup), never in an answer.
    if (!credentials) throw new AppError('UNAVAILABLE', 'Apple Wallet passes are not set up on this server');
    if (!appleShowsBarcode(pass.barcode)) {
      throw new AppError(
        'UNPROCESSABLE',
        `Apple Wallet does not show ${pass.barcode!.type} barcodes; it shows ${Object.keys(APPLE_BARCODES).join(', ')}`,
      );
    }
    const { barcodes, generic: fields, ...rest } = appleGenericDesign(pass);
    // Apple shows a strip image (the hero) on store cards, never on generic passes: a pass with a
    // hero is a store card with the same fields.
    const style = pictures.hero ? 'storeCard' : 'generic';
    const passJson = {
      formatVersion: 1,
      passTypeIdentifier: credentials.passTypeIdentifier,
      teamIdentifier: credentials.teamIdentifier,
      organizationName: this.settings.organizationName,
      serialNumber: pass.id,
      ...rest,
      [style]: fields,
      ...(barcodes.length > 0 ? { barcodes } : {}),
    };
    const files: Record<string, Buffer> = {
      'pass.json': Buffer.from(JSON.stringify(passJson)),
      ...(await applePictures(pass.backgroundColor, pictures)),
    };
    const pkpass = new PKPass(files, {
      wwdr: credentials.wwdr,
      signerCert: credentials.signerCert,
      signerKey: credentials.signerKey,
    });
    // passkit-generator only warns when it refuses a pass.json; without it the pass has no type.
    if (pkpass.type !== style) throw new Error('passkit-generator refused the pass.json it was given');
    return pkpass.getAsBuffer();
  }
}

/** How large the images of an Apple pass may be, in pixels (@1x; @2x doubles them). */
const APPLE_SIZES = {
  icon: { width: 29, height: 29 },
  logo: { width: 160, height: 50 },
  strip: { width: 375, height: 123 },
} as const;

async function png(image: Sharp, palette: boolean): Promise<Buffer> {
  return image.png(palette ? { palette: true, compressionLevel: 9 } : { compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
}

/**
 * icon.png (required), logo.png and strip.png at @1x and @2x. They travel to the gateway in one NATS
 * message with the rest of the pass, so when they are large they are made again as palette PNGs.
 */
async function applePictures(backgroundColor: string, pictures: ApplePictures): Promise<Record<string, Buffer>> {
  const make = async (palette: boolean): Promise<Record<string, Buffer>> => {
    const files: Record<string, Buffer> = {};
    for (const scale of [1, 2] as const) {
      const suffix = scale === 1 ? '' : `@${scale}x`;
      const icon = { width: APPLE_SIZES.icon.width * scale, height: APPLE_SIZES.icon.height * scale };
      files[`icon${suffix}.png`] = await png(
        pictures.logo
          ? sharp(pictures.logo)
              .resize({ ...icon, fit: 'contain', background: backgroundColor })
              .flatten({ background: backgroundColor })
          : sharp({ create: { ...icon, channels: 3, background: backgroundColor } }),
        palette,
      );
      if (pictures.logo) {
        const box = { width: APPLE_SIZES.logo.width * scale, height: APPLE_SIZES.logo.height * scale };
        files[`logo${suffix}.png`] = await png(sharp(pictures.logo).resize({ ...box, fit: 'inside', withoutEnlargement: true }), palette);
      }
      if (pictures.hero) {
        const box = { width: APPLE_SIZES.strip.width * scale, height: APPLE_SIZES.strip.height * scale };
        files[`strip${suffix}.png`] = await png(sharp(pictures.hero).resize({ ...box, fit: 'cover' }), palette);
      }
    }
    return files;
  };
  const files = await make(false);
  const size = Object.values(files).reduce((sum, b) => sum + b.length, 0);
  return size > PASS_IMAGE_STORED_MAX_BYTES / 2 ? make(true) : files;
}
