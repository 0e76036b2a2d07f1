import { describe, expect, it } from '@jest/globals';
import { SYMBOLOGIES } from './barcode-symbols.js';
import {
  APPLE_BARCODES,
  appleGenericDesign,
  appleRgb,
  appleShowsBarcode,
  contrastingText,
  googleGenericClass,
  googleGenericObject,
  googleId,
  googleSaveClaims,
  WALLET_BARCODE_TYPES,
  WALLET_BARCODES,
  type WalletPassFields,
} from './wallet-pass.js';

const PASS: WalletPassFields = {
  cardTitle: 'Corner Café',
  header: 'Loyalty card',
  subheader: 'Member',
  textRows: [
    { header: 'Name', body: 'Ada' },
    { header: 'Points', body: '120' },
    { header: 'Level', body: 'Gold' },
    { header: 'Since', body: '2024' },
    { header: 'Terms', body: 'Ten stamps, one coffee.' },
  ],
  barcode: { type: 'qrcode', value: 'MEMBER-0042', alternateText: '0042' },
  backgroundColor: '#1A73E8',
};

describe('WALLET_BARCODES', () => {
  it('names only symbologies the barcode creator (bwip-js) has', () => {
    const ids = new Set(SYMBOLOGIES.map((s) => s.bcid));
    for (const type of WALLET_BARCODE_TYPES) expect(ids.has(type)).toBe(true);
  });

  it("maps each to Google's barcode type, and Apple's four to PKBarcodeFormat", () => {
    expect(WALLET_BARCODES).toEqual({
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
    });
    expect(APPLE_BARCODES).toEqual({
      qrcode: 'PKBarcodeFormatQR',
      pdf417: 'PKBarcodeFormatPDF417',
      azteccode: 'PKBarcodeFormatAztec',
      code128: 'PKBarcodeFormatCode128',
    });
    expect(appleShowsBarcode(undefined)).toBe(true);
    expect(appleShowsBarcode({ type: 'code128', value: 'x' })).toBe(true);
    expect(appleShowsBarcode({ type: 'ean13', value: '9520123456788' })).toBe(false);
  });
});

describe('Google Wallet', () => {
  it('makes ids of the issuer and a suffix, replacing characters Google refuses', () => {
    expect(googleId('3388000000012345678', 'a-b_c.d')).toBe('3388000000012345678.a-b_c.d');
    expect(googleId('1', 'a b/c')).toBe('1.a_b_c');
    expect(googleGenericClass('1234', 'tinkerdesk_generic')).toEqual({ id: '1234.tinkerdesk_generic' });
  });

  it("builds the GenericObject in Google's REST format", () => {
    const object = googleGenericObject(PASS, {
      issuerId: '1234',
      objectSuffix: '6f1c2b1e-8a1d-4b7e-9a55-0c4a2d9e7f10',
      classId: '1234.tinkerdesk_generic',
      logoUrl: 'https://example.com/logo.png',
      heroUrl: 'https://example.com/hero.png',
    });
    const text = (value: string) => ({ defaultValue: { language: 'en-US', value } });
    expect(object).toEqual({
      id: '1234.6f1c2b1e-8a1d-4b7e-9a55-0c4a2d9e7f10',
      classId: '1234.tinkerdesk_generic',
      state: 'ACTIVE',
      cardTitle: text('Corner Café'),
      header: text('Loyalty card'),
      subheader: text('Member'),
      textModulesData: [
        { id: 'row1', header: 'Name', body: 'Ada' },
        { id: 'row2', header: 'Points', body: '120' },
        { id: 'row3', header: 'Level', body: 'Gold' },
        { id: 'row4', header: 'Since', body: '2024' },
        { id: 'row5', header: 'Terms', body: 'Ten stamps, one coffee.' },
      ],
      barcode: { type: 'QR_CODE', value: 'MEMBER-0042', alternateText: '0042' },
      hexBackgroundColor: '#1a73e8',
      logo: { sourceUri: { uri: 'https://example.com/logo.png' }, contentDescription: text('Corner Café logo') },
      heroImage: { sourceUri: { uri: 'https://example.com/hero.png' }, contentDescription: text('Loyalty card') },
    });
  });

  it('leaves out what the pass does not have', () => {
    const object = googleGenericObject(
      { cardTitle: 'T', header: 'H', textRows: [], backgroundColor: '#000000' },
      { issuerId: '1', objectSuffix: 'o', classId: '1.c' },
    );
    expect(Object.keys(object).sort()).toEqual(['cardTitle', 'classId', 'header', 'hexBackgroundColor', 'id', 'state']);
  });

  it('builds the save JWT claims', () => {
    const genericClass = googleGenericClass('1', 'c');
    const object = googleGenericObject(PASS, { issuerId: '1', objectSuffix: 'o', classId: genericClass.id });
    expect(
      googleSaveClaims({
        serviceAccountEmail: 'wallet@project.iam.gserviceaccount.com',
        origins: ['https://tinkerdesk.example'],
        issuedAt: 1_700_000_000,
        classes: [genericClass],
        objects: [object],
      }),
    ).toEqual({
      iss: 'wallet@project.iam.gserviceaccount.com',
      aud: 'google',
      typ: 'savetowallet',
      iat: 1_700_000_000,
      origins: ['https://tinkerdesk.example'],
      payload: { genericClasses: [genericClass], genericObjects: [object] },
    });
  });
});

describe('Apple Wallet', () => {
  it('writes colours as rgb() and picks black or white text for contrast', () => {
    expect(appleRgb('#1a73e8')).toBe('rgb(26, 115, 232)');
    expect(appleRgb('#FFFFFF')).toBe('rgb(255, 255, 255)');
    expect(contrastingText('#ffffff')).toBe('#000000');
    expect(contrastingText('#ffeb3b')).toBe('#000000');
    expect(contrastingText('#000000')).toBe('#ffffff');
    expect(contrastingText('#1a237e')).toBe('#ffffff');
  });

  it('lays the fields out on a generic pass', () => {
    expect(appleGenericDesign(PASS)).toEqual({
      description: 'Corner Café: Loyalty card (Member)',
      backgroundColor: 'rgb(26, 115, 232)',
      // #1a73e8 is light enough (luminance 0.18) that black contrasts more than white (4.7 against 4.5).
      foregroundColor: 'rgb(0, 0, 0)',
      labelColor: 'rgb(0, 0, 0)',
      logoText: 'Corner Café',
      generic: {
        headerFields: [],
        primaryFields: [{ key: 'header', label: 'Member', value: 'Loyalty card' }],
        secondaryFields: [
          { key: 'row1', label: 'Name', value: 'Ada' },
          { key: 'row2', label: 'Points', value: '120' },
        ],
        auxiliaryFields: [
          { key: 'row3', label: 'Level', value: 'Gold' },
          { key: 'row4', label: 'Since', value: '2024' },
        ],
        backFields: [{ key: 'row5', label: 'Terms', value: 'Ten stamps, one coffee.' }],
      },
      barcodes: [{ format: 'PKBarcodeFormatQR', message: 'MEMBER-0042', messageEncoding: 'iso-8859-1', altText: '0042' }],
    });
  });

  it('encodes messages beyond Latin-1 as UTF-8, and refuses barcodes Apple does not show', () => {
    expect(appleGenericDesign({ ...PASS, barcode: { type: 'azteccode', value: 'Ticket ✓' } }).barcodes).toEqual([
      { format: 'PKBarcodeFormatAztec', message: 'Ticket ✓', messageEncoding: 'utf-8' },
    ]);
    expect(() => appleGenericDesign({ ...PASS, barcode: { type: 'ean13', value: '9520123456788' } })).toThrow(/ean13/);
  });
});
