import { useEffect, useRef, useState } from 'react';
import { getSetting, putSetting } from '../../shared/ui/history';
import { isWalletBarcode, rowKey, type PassDraft } from './draft';
import type { ImageSlot, PassImage } from './images';

/** The draft as kept in this browser's local database (settings store): fields and pictures (Blobs keep as they are). */
export interface StoredDraft {
  draft: PassDraft;
  images: Partial<Record<ImageSlot, PassImage>>;
  /** What the server holds of the pass the draft edits (its id, the draft's state when saved, which pictures it has). */
  saved: SavedState | null;
}

export interface SavedState {
  id: string;
  /** The account it was saved in (another account signed in here does not edit it). */
  owner: string;
  key: string;
  logo: boolean;
  hero: boolean;
}

const SETTING = 'wallet-pass.draft';
const SAVE_DELAY_MS = 400;

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** The stored value when it is a draft this page can use (an older or damaged one is ignored). */
export function readStored(value: unknown): StoredDraft | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { draft, images, saved } = value as {
    draft?: Partial<PassDraft>;
    images?: Record<string, unknown>;
    saved?: Partial<SavedState> | null;
  };
  if (!draft || typeof draft !== 'object') return undefined;
  const strings = ['cardTitle', 'header', 'subheader', 'barcodeType', 'barcodeValue', 'alternateText', 'backgroundColor'] as const;
  if (!strings.every((k) => isString(draft[k])) || !Array.isArray(draft.textRows) || !isWalletBarcode(draft.barcodeType!)) {
    return undefined;
  }
  const rows = draft.textRows.filter((r): r is PassDraft['textRows'][number] => Boolean(r) && isString(r.header) && isString(r.body));
  const kept: StoredDraft['images'] = {};
  for (const slot of ['logo', 'hero'] as const) {
    const image = images?.[slot] as PassImage | undefined;
    if (image?.kind === 'local' && image.blob instanceof Blob) kept[slot] = image;
    else if (image?.kind === 'saved' && isString(image.url)) kept[slot] = image;
  }
  return {
    draft: {
      id: isString(draft.id) ? draft.id : crypto.randomUUID(),
      cardTitle: draft.cardTitle!,
      header: draft.header!,
      subheader: draft.subheader!,
      textRows: rows.map((r) => ({ key: isString(r.key) ? r.key : rowKey(), header: r.header, body: r.body })),
      withBarcode: draft.withBarcode !== false,
      barcodeType: draft.barcodeType as PassDraft['barcodeType'],
      barcodeValue: draft.barcodeValue!,
      alternateText: draft.alternateText!,
      backgroundColor: draft.backgroundColor!,
    },
    images: kept,
    saved:
      saved && isString(saved.id) && isString(saved.key) && isString(saved.owner)
        ? { id: saved.id, owner: saved.owner, key: saved.key, logo: saved.logo === true, hero: saved.hero === true }
        : null,
  };
}

/**
 * Loads the kept draft once (loaded turns true; the stored one, if any, goes to onLoad), then keeps
 * `value` a moment after each change, so a reload or a closed tab loses nothing. A browser without
 * IndexedDB simply keeps nothing.
 */
export function useStoredDraft(value: StoredDraft, onLoad: (stored: StoredDraft) => void): { loaded: boolean } {
  const [loaded, setLoaded] = useState(false);
  const first = useRef(onLoad);
  useEffect(() => {
    let live = true;
    getSetting(SETTING)
      .then((stored) => {
        const draft = readStored(stored);
        if (live && draft) first.current(draft);
      })
      .catch(() => undefined)
      .finally(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, []);
  const pending = useRef<StoredDraft | undefined>(undefined);
  useEffect(() => {
    if (!loaded) return;
    pending.current = value;
    const timer = setTimeout(() => {
      pending.current = undefined;
      void putSetting(SETTING, value).catch(() => undefined);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [loaded, value]);
  // Leaving the page within the delay still keeps the last change.
  useEffect(
    () => () => {
      if (pending.current) void putSetting(SETTING, pending.current).catch(() => undefined);
    },
    [],
  );
  return { loaded };
}
