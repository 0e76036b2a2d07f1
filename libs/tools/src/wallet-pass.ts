/**
 * Wallet passes (the wallet pass tool, issue 19): the fields a user designs, and what Google Wallet
 * and Apple Wallet make of them. Pure and browser-safe: the designer page builds its live preview and
 * its JSON export with these functions, and the terminals service signs what they build.
 *
 * Google's formats follow its REST reference (GenericClass, GenericObject, the "Save to Google
 * Wallet" JWT); Apple's follow the PassKit Package Format Reference (pass.json of a generic pass).
 */

/** The longest text of each field, in characters. */
export const WALLET_PASS_LIMITS = {
  cardTitle: 60,
  header: 60,
  subheader: 60,
  textRows: 10,
  rowHeader: 40,
  rowBody: 200,
  barcodeValue: 2000,
  alternateText: 60,
} as const;

/**
 * The barcode creator's symbologies (bwip-js ids, see barcode-symbols.ts) that Google Wallet shows,
 * with Google's name for each (GenericObject.barcode.type).
 */
export const WALLET_BARCODES = {
  qrcode: 'QR_CODE',
  azteccode: 'AZTEC',
  pdf417: 'PDF_417',
  datamatrix: 'DATA_MATRIX',
  code128: 'CODE_128',
  code39: 'CODE_39',
  ean13: 'EAN_13',
  ean8: 'EAN_8',
  upca: 'UPC_A',
  itf14: 'ITF_14',
  rationalizedCodabar: 'CODABAR',
} as const;

export type WalletBarcodeType = keyof typeof WALLET_BARCODES;
export type GoogleBarcodeType = (typeof WALLET_BARCODES)[WalletBarcodeType];

/** Every barcode type a pass may carry (bwip-js ids), in the order of WALLET_BARCODES. */
export const WALLET_BARCODE_TYPES = Object.keys(WALLET_BARCODES) as WalletBarcodeType[];

/** The ones Apple Wallet shows too (PassKit's PKBarcodeFormat*): QR, PDF417, Aztec and Code 128. */
export const APPLE_BARCODES = {
  qrcode: 'PKBarcodeFormatQR',
  pdf417: 'PKBarcodeFormatPDF417',
  azteccode: 'PKBarcodeFormatAztec',
  code128: 'PKBarcodeFormatCode128',
} as const satisfies Partial<Record<WalletBarcodeType, string>>;

export type AppleBarcodeFormat = (typeof APPLE_BARCODES)[keyof typeof APPLE_BARCODES];

/** A background colour: '#rrggbb'. */
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export interface WalletTextRow {
  header: string;
  body: string;
}

export interface WalletBarcode {
  type: WalletBarcodeType;
  value: string;
  /** Text shown under the barcode (Google: alternateText; Apple: altText). */
  alternateText?: string;
}

/** What the user designs (the images are separate: a logo and a hero image, by URL). */
export interface WalletPassFields {
  /** The card's title (Google: cardTitle, Apple: logoText). */
  cardTitle: string;
  /** The pass's main line (Google: header, Apple: the primary field's value). */
  header: string;
  /** A line above the header (Google: subheader, Apple: the primary field's label). */
  subheader?: string;
  /** Up to 10 rows of header and body (Google: textModulesData; Apple: secondary, auxiliary and back fields). */
  textRows: WalletTextRow[];
  barcode?: WalletBarcode;
  /** '#rrggbb' */
  backgroundColor: string;
}

/** Whether Apple Wallet can show a pass with this barcode (no barcode: yes). */
export function appleShowsBarcode(barcode: WalletBarcode | undefined): boolean {
  return barcode === undefined || barcode.type in APPLE_BARCODES;
}

// ---------------------------------------------------------------------------------------------------
// Google Wallet (REST reference: walletobjects v1, GenericClass and GenericObject)

export interface GoogleLocalizedString {
  defaultValue: { language: string; value: string };
}

export interface GoogleImage {
  sourceUri: { uri: string };
  contentDescription: GoogleLocalizedString;
}

export interface GoogleTextModule {
  id: string;
  header: string;
  body: string;
}

export interface GoogleBarcode {
  type: GoogleBarcodeType;
  value: string;
  alternateText?: string;
}

export interface GoogleGenericClass {
  /** "<issuerId>.<suffix>" */
  id: string;
}

export interface GoogleGenericObject {
  /** "<issuerId>.<suffix>" */
  id: string;
  classId: string;
  state: 'ACTIVE';
  cardTitle: GoogleLocalizedString;
  header: GoogleLocalizedString;
  subheader?: GoogleLocalizedString;
  textModulesData?: GoogleTextModule[];
  barcode?: GoogleBarcode;
  hexBackgroundColor: string;
  logo?: GoogleImage;
  heroImage?: GoogleImage;
}

/** The language of the texts of a pass. */
export const WALLET_LANGUAGE = 'en-US';

/** The issuer id written into the JSON when the site has none configured: replace it with your own. */
export const GOOGLE_ISSUER_PLACEHOLDER = 'ISSUER_ID';

export function localized(value: string, language: string = WALLET_LANGUAGE): GoogleLocalizedString {
  return { defaultValue: { language, value } };
}

/**
 * Google ids are "<issuerId>.<identifier>", the identifier made of letters, digits, '.', '_' and '-'.
 * Anything else in a suffix becomes '_'.
 */
export function googleId(issuerId: string, suffix: string): string {
  return `${issuerId}.${suffix.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

export function googleGenericClass(issuerId: string, classSuffix: string): GoogleGenericClass {
  return { id: googleId(issuerId, classSuffix) };
}

export interface GoogleObjectOptions {
  issuerId: string;
  objectSuffix: string;
  /** The full id of the class ("<issuerId>.<suffix>"), as googleGenericClass made it. */
  classId: string;
  /** Public https URLs of the images (Google fetches them). */
  logoUrl?: string;
  heroUrl?: string;
}

/** A pass as a Google Wallet GenericObject. */
export function googleGenericObject(pass: WalletPassFields, options: GoogleObjectOptions): GoogleGenericObject {
  const object: GoogleGenericObject = {
    id: googleId(options.issuerId, options.objectSuffix),
    classId: options.classId,
    state: 'ACTIVE',
    cardTitle: localized(pass.cardTitle),
    header: localized(pass.header),
    hexBackgroundColor: pass.backgroundColor.toLowerCase(),
  };
  if (pass.subheader) object.subheader = localized(pass.subheader);
  if (pass.textRows.length > 0) {
    object.textModulesData = pass.textRows.map((row, i) => ({ id: `row${i + 1}`, header: row.header, body: row.body }));
  }
  if (pass.barcode) {
    object.barcode = {
      type: WALLET_BARCODES[pass.barcode.type],
      value: pass.barcode.value,
      ...(pass.barcode.alternateText ? { alternateText: pass.barcode.alternateText } : {}),
    };
  }
  if (options.logoUrl) object.logo = { sourceUri: { uri: options.logoUrl }, contentDescription: localized(`${pass.cardTitle} logo`) };
  if (options.heroUrl) object.heroImage = { sourceUri: { uri: options.heroUrl }, contentDescription: localized(pass.header) };
  return object;
}

/** The claims of a "Save to Google Wallet" JWT (signed RS256 by the issuer's service account). */
export interface GoogleSaveClaims {
  iss: string;
  aud: 'google';
  typ: 'savetowallet';
  iat: number;
  origins: string[];
  payload: { genericClasses: GoogleGenericClass[]; genericObjects: GoogleGenericObject[] };
}

export interface GoogleSaveInput {
  /** The service account's email (client_email of its JSON key). */
  serviceAccountEmail: string;
  /** Origins of the pages that show the save button. */
  origins: string[];
  /** Seconds since the epoch. */
  issuedAt: number;
  classes: GoogleGenericClass[];
  objects: GoogleGenericObject[];
}

export function googleSaveClaims(input: GoogleSaveInput): GoogleSaveClaims {
  return {
    iss: input.serviceAccountEmail,
    aud: 'google',
    typ: 'savetowallet',
    iat: input.issuedAt,
    origins: input.origins,
    payload: { genericClasses: input.classes, genericObjects: input.objects },
  };
}

/** Where a signed save JWT is opened: https://pay.google.com/gp/v/save/<jwt>. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

// ---------------------------------------------------------------------------------------------------
// Apple Wallet (PassKit: pass.json of a generic pass, without the identifiers and certificates)

/** '#rrggbb' as the rgb() text pass.json takes. */
export function appleRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** The WCAG relative luminance of '#rrggbb' (0 black to 1 white). */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** Black or white, whichever contrasts more with the background (WCAG contrast ratio). */
export function contrastingText(backgroundHex: string): '#000000' | '#ffffff' {
  const l = relativeLuminance(backgroundHex);
  // Contrast with black: (l + 0.05) / 0.05; with white: 1.05 / (l + 0.05). Equal at l ≈ 0.179.
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

export interface AppleField {
  key: string;
  label?: string;
  value: string;
}

export interface AppleBarcode {
  format: AppleBarcodeFormat;
  message: string;
  /** iso-8859-1 (what Apple recommends) when the message fits it, else utf-8. */
  messageEncoding: 'iso-8859-1' | 'utf-8';
  altText?: string;
}

/** The design part of a generic pass.json: colours, logo text, fields and barcode. */
export interface AppleGenericDesign {
  description: string;
  backgroundColor: string;
  foregroundColor: string;
  labelColor: string;
  logoText: string;
  generic: {
    headerFields: AppleField[];
    primaryFields: AppleField[];
    secondaryFields: AppleField[];
    auxiliaryFields: AppleField[];
    backFields: AppleField[];
  };
  barcodes: AppleBarcode[];
}

/**
 * A pass as the design of an Apple generic pass: the subheader labels the header in the primary
 * field (as Google shows it above the header), the first two text rows are secondary fields, the
 * next two auxiliary fields, and the rest go to the back. Throws for a barcode Apple does not show
 * (check appleShowsBarcode first).
 */
export function appleGenericDesign(pass: WalletPassFields): AppleGenericDesign {
  const rows = pass.textRows.map((row, i) => ({ key: `row${i + 1}`, label: row.header, value: row.body }));
  const foreground = contrastingText(pass.backgroundColor);
  const barcodes: AppleBarcode[] = [];
  if (pass.barcode) {
    const format = (APPLE_BARCODES as Partial<Record<WalletBarcodeType, AppleBarcodeFormat>>)[pass.barcode.type];
    if (!format) throw new Error(`Apple Wallet does not show ${pass.barcode.type} barcodes`);
    barcodes.push({
      format,
      message: pass.barcode.value,
      messageEncoding: Array.from(pass.barcode.value).every((c) => c.codePointAt(0)! <= 0xff) ? 'iso-8859-1' : 'utf-8',
      ...(pass.barcode.alternateText ? { altText: pass.barcode.alternateText } : {}),
    });
  }
  return {
    description: pass.subheader ? `${pass.cardTitle}: ${pass.header} (${pass.subheader})` : `${pass.cardTitle}: ${pass.header}`,
    backgroundColor: appleRgb(pass.backgroundColor),
    foregroundColor: appleRgb(foreground),
    labelColor: appleRgb(foreground),
    logoText: pass.cardTitle,
    generic: {
      headerFields: [],
      primaryFields: [{ key: 'header', ...(pass.subheader ? { label: pass.subheader } : {}), value: pass.header }],
      secondaryFields: rows.slice(0, 2),
      auxiliaryFields: rows.slice(2, 4),
      backFields: rows.slice(4),
    },
    barcodes,
  };
}
