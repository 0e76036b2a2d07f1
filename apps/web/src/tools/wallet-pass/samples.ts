import { SYMBOLOGIES } from '@tinkerdesk/tools/barcode-symbols';
import { WALLET_BARCODE_TYPES, type WalletBarcodeType } from '@tinkerdesk/tools/wallet-pass';
import type { BarcodeChoice } from './PassDesigner';

const SYMBOLS = new Map(SYMBOLOGIES.map((s) => [s.bcid, s]));
// Samples a scanner reads and Google Wallet accepts as they are (bwip-js's ITF-14 sample has spaces, its QR one a retired shortener).
const SAMPLES: Partial<Record<WalletBarcodeType, string>> = { qrcode: 'https://tinkerdesk.dev', itf14: '09521234543213' };
export const sampleOf = (type: WalletBarcodeType): string => SAMPLES[type] ?? SYMBOLS.get(type)?.text ?? '';
export const BARCODES: BarcodeChoice[] = WALLET_BARCODE_TYPES.map((bcid) => ({ bcid, label: SYMBOLS.get(bcid)?.desc ?? bcid }));
