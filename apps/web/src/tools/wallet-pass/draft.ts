import {
  HEX_COLOR,
  WALLET_BARCODES,
  WALLET_PASS_LIMITS,
  type WalletBarcodeType,
  type WalletPassFields,
} from '@tinkerdesk/tools/wallet-pass';

export { HEX_COLOR };

/**
 * The pass being designed, as the page holds it: the fields of a pass (what POST /v1/passes/{id} takes),
 * plus what only the page knows (which saved pass it edits, row keys for React, a barcode switched off
 * but remembered). Pure functions: the page, its tests and the local draft store share them.
 */

/** The longest text of each field, as the server checks them. */
export const LIMITS = WALLET_PASS_LIMITS;

export interface TextRowDraft {
  /** Stable identity across reordering (React keys, focus after a move). */
  key: string;
  header: string;
  body: string;
}

export interface PassDraft {
  /** The pass's id: a UUID made here, under which the first Save creates it and the next ones update it. */
  id: string;
  cardTitle: string;
  header: string;
  subheader: string;
  textRows: TextRowDraft[];
  /** Whether the pass shows a barcode; the fields are kept when it is switched off. */
  withBarcode: boolean;
  barcodeType: WalletBarcodeType;
  barcodeValue: string;
  alternateText: string;
  backgroundColor: string;
}

/** What POST /v1/passes/{id} takes in its "pass" field (and what the Google builders take). */
export type PassFields = WalletPassFields;

export const isWalletBarcode = (value: string): value is WalletBarcodeType => Object.hasOwn(WALLET_BARCODES, value);

let keys = 0;
export const rowKey = (): string => `row-${Date.now().toString(36)}-${(keys++).toString(36)}`;

export function newDraft(): PassDraft {
  return {
    id: crypto.randomUUID(),
    cardTitle: 'Tinkerdesk Café',
    header: 'Loyalty card',
    subheader: 'Member',
    textRows: [
      { key: rowKey(), header: 'Points', body: '120' },
      { key: rowKey(), header: 'Level', body: 'Gold' },
    ],
    withBarcode: true,
    barcodeType: 'qrcode',
    barcodeValue: 'https://tinkerdesk.dev',
    alternateText: '',
    backgroundColor: '#4f46e5',
  };
}

/** The fields to send and export: trimmed, optional ones left out when empty, blank rows dropped. */
export function passFields(draft: PassDraft): PassFields {
  const subheader = draft.subheader.trim();
  const alternateText = draft.alternateText.trim();
  const fields: PassFields = {
    cardTitle: draft.cardTitle.trim(),
    header: draft.header.trim(),
    textRows: draft.textRows.map((r) => ({ header: r.header.trim(), body: r.body.trim() })).filter((r) => r.header !== '' || r.body !== ''),
    backgroundColor: draft.backgroundColor.toLowerCase(),
  };
  if (subheader) fields.subheader = subheader;
  if (draft.withBarcode && draft.barcodeValue !== '') {
    fields.barcode = { type: draft.barcodeType, value: draft.barcodeValue, ...(alternateText ? { alternateText } : {}) };
  }
  return fields;
}

export type DraftField = 'cardTitle' | 'header' | 'subheader' | 'barcodeValue' | 'alternateText' | 'backgroundColor' | `row-${string}`;

/** Every problem of the draft, by field, in words a person reads (the barcode's data is checked by drawing it). */
export function draftErrors(draft: PassDraft): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  const required = (key: 'cardTitle' | 'header', name: string) => {
    const value = draft[key].trim();
    if (!value) errors[key] = `${name} is required.`;
    else if ([...value].length > LIMITS[key]) errors[key] = `${name} can be at most ${LIMITS[key]} characters.`;
  };
  required('cardTitle', 'Card title');
  required('header', 'Header');
  if ([...draft.subheader.trim()].length > LIMITS.subheader) errors.subheader = `Subheader can be at most ${LIMITS.subheader} characters.`;
  draft.textRows.forEach((row, i) => {
    const header = row.header.trim();
    const body = row.body.trim();
    if (!header && !body) return;
    if (!body) errors[`row-${row.key}`] = `Row ${i + 1} needs a value (the label is optional).`;
    else if ([...header].length > LIMITS.rowHeader)
      errors[`row-${row.key}`] = `Row ${i + 1}'s label can be at most ${LIMITS.rowHeader} characters.`;
    else if ([...body].length > LIMITS.rowBody)
      errors[`row-${row.key}`] = `Row ${i + 1}'s value can be at most ${LIMITS.rowBody} characters.`;
  });
  if (draft.withBarcode) {
    if (!isWalletBarcode(draft.barcodeType)) errors.barcodeValue = 'Choose a barcode type Google Wallet shows.';
    else if (draft.barcodeValue === '') errors.barcodeValue = 'Type the data of the barcode, or switch the barcode off.';
    else if ([...draft.barcodeValue].length > LIMITS.barcodeValue)
      errors.barcodeValue = `The barcode's data can be at most ${LIMITS.barcodeValue} characters.`;
    if ([...draft.alternateText.trim()].length > LIMITS.alternateText)
      errors.alternateText = `Alternate text can be at most ${LIMITS.alternateText} characters.`;
  }
  if (!HEX_COLOR.test(draft.backgroundColor)) errors.backgroundColor = 'Use a colour like #4f46e5 (# and six hexadecimal digits).';
  return errors;
}

/** The draft a saved pass gives (open to edit). */
export function draftOf(pass: {
  id: string;
  cardTitle: string;
  header: string;
  subheader?: string | null;
  textRows: Array<{ header: string; body: string }>;
  barcode?: { type: string; value: string; alternateText?: string | null } | null;
  backgroundColor: string;
}): PassDraft {
  const barcode = pass.barcode && isWalletBarcode(pass.barcode.type) ? pass.barcode : undefined;
  return {
    id: pass.id,
    cardTitle: pass.cardTitle,
    header: pass.header,
    subheader: pass.subheader ?? '',
    textRows: pass.textRows.map((r) => ({ key: rowKey(), header: r.header, body: r.body })),
    withBarcode: barcode !== undefined,
    barcodeType: barcode && isWalletBarcode(barcode.type) ? barcode.type : 'qrcode',
    barcodeValue: barcode?.value ?? '',
    alternateText: barcode?.alternateText ?? '',
    backgroundColor: pass.backgroundColor,
  };
}

/** Moves the item at `from` to `to` (a no-op outside the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to || from < 0 || from >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** A file name for the export: the card title and header, tidied. */
export function exportStem(draft: PassDraft): string {
  return (
    `${draft.cardTitle} ${draft.header}`
      .trim()
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
      .replace(/\s+/g, '-')
      .toLowerCase()
      .slice(0, 80) || 'pass'
  );
}
