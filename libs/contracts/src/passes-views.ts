/**
 * Wallet passes (issue 19): what the API answers about a user's passes. Browser-safe: types and
 * constants only. The pass fields and what Google and Apple make of them are in
 * `@tinkerdesk/tools/wallet-pass` (the designer page uses them for its preview and JSON export).
 */
import type { GoogleGenericClass, GoogleGenericObject, WalletBarcode, WalletTextRow } from '@tinkerdesk/tools/wallet-pass';

/** The two image slots of a pass, and the box each image is resized into (Google's recommended sizes). */
export const PASS_IMAGE_SLOTS = {
  logo: { width: 660, height: 660 },
  hero: { width: 1032, height: 336 },
} as const;
export type PassImageSlot = keyof typeof PASS_IMAGE_SLOTS;

/** The sort keys of the pass list (docs/api.md#wallet-passes: limit, offset, sort, dir). */
export const PASS_SORTS = ['created', 'modified', 'cardTitle', 'header'] as const;
export type PassSort = (typeof PASS_SORTS)[number];
/** Sort direction: ASC or DESC. */
export const SORT_DIRECTIONS = ['ASC', 'DESC'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * The largest stored image, in bytes of PNG: a NATS message carries it in base64 (4/3 larger), and
 * NATS refuses messages over 1 MiB by default (max_payload).
 */
export const PASS_IMAGE_STORED_MAX_BYTES = 700_000;

/** The id of a stored image (a SHA-256, hex); its public URL is /v1/passes/images/<id>.png. */
export const PASS_IMAGE_ID = /^[0-9a-f]{64}$/;

/** The path of an image under /v1 (the service makes it absolute with PUBLIC_URL). */
export const passImagePath = (imageId: string): string => `/v1/passes/images/${imageId}.png`;

/** Passes one account may keep. */
export const MAX_PASSES = 500;

/** The response header that carries the total of a list (docs/api.md#wallet-passes). */
export const LIST_COUNT_HEADER = 'x-list-count';

/** A stored image of a pass: its public URL (PNG) and size in pixels. */
export interface PassImageView {
  url: string;
  width: number;
  height: number;
}

/** A wallet pass as its owner sees it. */
export interface PassView {
  id: string;
  cardTitle: string;
  header: string;
  subheader: string | null;
  textRows: WalletTextRow[];
  barcode: WalletBarcode | null;
  /** '#rrggbb' */
  backgroundColor: string;
  logo: PassImageView | null;
  hero: PassImageView | null;
  created: string;
  modified: string;
}

export interface PassList {
  passes: PassView[];
  /** Every pass of the account (also in the x-list-count header). */
  total: number;
  offset: number;
  limit: number;
}

/** A pass saved: `created` is true when it is new (201), false when it replaced the caller's pass (200). */
export interface PassSaved {
  pass: PassView;
  created: boolean;
}

/**
 * One wallet: whether the site can make its passes. What is missing is the operator's business: the
 * terminals service logs it at startup, and it is never answered to visitors.
 */
export interface WalletStatus {
  configured: boolean;
}

export interface WalletConfigView {
  google: WalletStatus;
  apple: WalletStatus;
}

/**
 * A pass for Google Wallet: the "Save to Google Wallet" link when the site has an issuer and a service
 * account key, and in any case the GenericClass and GenericObject JSON (to import them elsewhere).
 */
export interface PassGoogleView extends WalletStatus {
  /** https://pay.google.com/gp/v/save/<jwt>, or null when not configured. */
  saveUrl: string | null;
  genericClass: GoogleGenericClass;
  genericObject: GoogleGenericObject;
}

/** NATS answer of terminals.pass.image-store: the stored image's id and size. */
export interface PassImageRef {
  id: string;
  width: number;
  height: number;
}

/** NATS answer of terminals.pass.image-get: a stored PNG, base64. */
export interface PassImageData extends PassImageRef {
  type: 'image/png';
  data: string;
}

/** NATS answer of terminals.pass.apple: the signed .pkpass, base64, and a file name for it. */
export interface PassAppleData {
  filename: string;
  data: string;
}
