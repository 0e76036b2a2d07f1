/**
 * The wallet pass page's state machine: the draft and its pictures (kept in this browser), which saved
 * pass it edits and whether it has unsaved changes, and the actions: change, save (a pass saved by
 * another account signed in here before is saved as a new one), open a saved pass, start a new one,
 * and follow a deletion. The server calls are the mutations of hooks.ts.
 */
import { useCallback, useMemo, useState } from 'react';
import { errorText } from '../../shared/api';
import { useSession } from '../../shared/session/session';
import type { PassView } from './api';
import { draftErrors, draftOf, newDraft, passFields, type DraftField, type PassDraft } from './draft';
import { useStoredDraft, type SavedState, type StoredDraft } from './draft-store';
import { useOpenPass, useSavePass } from './hooks';
import type { ImageSlot, PassImage, SavedImage } from './images';
import { sampleOf } from './samples';
import { usePassBarcode } from './use-pass-barcode';

/** The order of the fields on the page, to focus the first one with a problem. */
const FIELD_IDS: Array<[DraftField | 'row', string]> = [
  ['cardTitle', 'wallet-cardTitle'],
  ['header', 'wallet-header'],
  ['subheader', 'wallet-subheader'],
  ['backgroundColor', 'wallet-color-text'],
  ['row', ''],
  ['barcodeValue', 'wallet-barcode-value'],
  ['alternateText', 'wallet-alternateText'],
];

export type Images = Partial<Record<ImageSlot, PassImage>>;

function savedImage(view: { url: string; width: number; height: number } | null | undefined): SavedImage | undefined {
  return view ? { kind: 'saved', url: view.url, width: view.width, height: view.height } : undefined;
}

/** The server's pictures of a pass as the page holds them. */
function savedImages(pass: PassView): Images {
  const images: Images = {};
  const logo = savedImage(pass.logo);
  const hero = savedImage(pass.hero);
  if (logo) images.logo = logo;
  if (hero) images.hero = hero;
  return images;
}

/** What the server holds, to compare with the draft (a picture chosen here always counts as a change). */
function stateKey(draft: PassDraft, images: Images): string {
  const image = (i: PassImage | undefined) => (i === undefined ? null : i.kind === 'saved' ? i.url : 'local');
  return JSON.stringify({ fields: passFields(draft), logo: image(images.logo), hero: image(images.hero) });
}

const PRISTINE = stateKey(newDraft(), {});

function savedStateOf(pass: PassView, owner: string, draft: PassDraft, images: Images): SavedState {
  return { id: pass.id, owner, key: stateKey(draft, images), logo: Boolean(pass.logo), hero: Boolean(pass.hero) };
}

const localOnly = (images: Images): Images => Object.fromEntries(Object.entries(images).filter(([, i]) => i.kind === 'local')) as Images;

export function usePassEditor() {
  const session = useSession();
  const token = session.loggedIn ? session.token : null;
  const me = session.loggedIn ? (session.profile?.guid ?? null) : null;
  const [draft, setDraft] = useState<PassDraft>(newDraft);
  const [images, setImages] = useState<Images>({});
  const [saved, setSaved] = useState<SavedState | null>(null);
  const stored = useMemo<StoredDraft>(() => ({ draft, images, saved }), [draft, images, saved]);
  const { loaded } = useStoredDraft(stored, (kept) => {
    setDraft(kept.draft);
    setImages(kept.images);
    setSaved(kept.saved);
  });

  const fields = useMemo(() => passFields(draft), [draft]);
  const errors = useMemo(() => draftErrors(draft), [draft]);
  const barcode = usePassBarcode(fields);
  const barcodeProblem = barcode.error;
  const problems = Object.keys(errors).length > 0 || Boolean(barcodeProblem);
  const key = stateKey(draft, images);
  // The saved pass the page edits: the draft's, saved in the account signed in.
  const mine = saved !== null && saved.id === draft.id && saved.owner === me;
  // Changes not in the account: against the saved pass, or for a pass never saved, anything but the untouched sample.
  const dirty = mine ? saved.key !== key : key !== PRISTINE;

  const saving = useSavePass();
  const opening = useOpenPass();
  const [status, setStatus] = useState('');
  /** A message of the page itself (the fields to fix); the server's failures come from the mutations. */
  const [problem, setProblem] = useState('');
  const failure = saving.error ?? opening.error;
  const error = problem || (failure ? errorText(failure) : '');
  const [version, setVersion] = useState(0);

  const clearMessages = () => {
    setProblem('');
    setStatus('');
    saving.reset();
    opening.reset();
  };

  const change = useCallback((patch: Partial<PassDraft>) => {
    setStatus('');
    setDraft((d) => {
      const next = { ...d, ...patch };
      // A sample stays a sample: another type shows its own sample unless you typed your own data.
      if (patch.barcodeType && patch.barcodeType !== d.barcodeType && d.barcodeValue === sampleOf(d.barcodeType)) {
        next.barcodeValue = sampleOf(patch.barcodeType);
      }
      return next;
    });
  }, []);
  const setImage = useCallback((slot: ImageSlot, image: PassImage | undefined) => {
    setStatus('');
    setImages((list) => {
      const next = { ...list };
      if (image) next[slot] = image;
      else delete next[slot];
      return next;
    });
  }, []);

  /** Focuses the first field with a problem and says what to fix. */
  function showProblems(action: string) {
    const first = FIELD_IDS.find(([key]) =>
      key === 'row'
        ? Object.keys(errors).some((k) => k.startsWith('row-'))
        : key === 'barcodeValue'
          ? errors.barcodeValue || barcodeProblem
          : errors[key],
    );
    let id = first?.[1];
    if (first?.[0] === 'row') {
      const row = draft.textRows.find((r) => errors[`row-${r.key}`]);
      id = row ? `wallet-row-${row.key}-${row.body.trim() ? 'header' : 'body'}` : undefined;
    }
    if (id) document.getElementById(id)?.focus();
    setProblem(`Fix the marked fields to ${action}.`);
  }

  function save() {
    if (!token || !me) return;
    clearMessages();
    if (problems) return showProblems('save the pass');
    // A pass saved by another account signed in here before is not this one's: it is saved as a new
    // pass (its stored pictures, the other account's, stay out).
    const foreign = saved !== null && saved.id === draft.id && saved.owner !== me;
    const sentDraft = foreign ? { ...draft, id: crypto.randomUUID() } : draft;
    const id = sentDraft.id;
    const sentImages: Images = foreign ? localOnly(images) : images;
    if (foreign) {
      setDraft((d) => ({ ...d, id }));
      setImages(sentImages);
    }
    const files: Partial<Record<ImageSlot, Blob>> = {};
    const remove: ImageSlot[] = [];
    for (const slot of ['logo', 'hero'] as const) {
      const image = sentImages[slot];
      if (image?.kind === 'local') files[slot] = image.blob;
      else if (!image && mine && saved[slot]) remove.push(slot);
    }
    saving.mutate(
      { id, fields: passFields(sentDraft), files, remove },
      {
        onSuccess: ({ pass, created }) => {
          const nextImages = savedImages(pass);
          const { logo, hero } = nextImages;
          // Changes made while saving stay (and stay unsaved); the pictures sent become the server's.
          setImages((now) => ({
            ...(now.logo === sentImages.logo ? { ...(logo ? { logo } : {}) } : now.logo ? { logo: now.logo } : {}),
            ...(now.hero === sentImages.hero ? { ...(hero ? { hero } : {}) } : now.hero ? { hero: now.hero } : {}),
          }));
          setSaved(savedStateOf(pass, me, sentDraft, nextImages));
          setVersion((v) => v + 1);
          setStatus(created ? `Saved "${pass.header}" as a new pass.` : `Saved the changes to "${pass.header}".`);
        },
      },
    );
  }

  function open(pass: PassView) {
    if (!token || !me) return;
    clearMessages();
    opening.mutate(pass.id, {
      onSuccess: (fresh) => {
        const next = draftOf(fresh);
        const nextImages = savedImages(fresh);
        setDraft(next);
        setImages(nextImages);
        setSaved(savedStateOf(fresh, me, next, nextImages));
        setStatus(`Opened "${fresh.header}". Change it and press Save.`);
        document.getElementById('wallet-cardTitle')?.focus();
      },
    });
  }

  const deleted = useCallback(
    (id: string) => {
      if (draft.id !== id) return;
      // The design stays on the page as a new, unsaved pass; the deleted pictures are gone with it.
      setDraft((d) => ({ ...d, id: crypto.randomUUID() }));
      setImages(localOnly);
      setSaved(null);
    },
    [draft.id],
  );

  function startNew() {
    setDraft(newDraft());
    setImages({});
    setSaved(null);
    clearMessages();
    setStatus('Started a new pass.');
  }

  return {
    token,
    loaded,
    draft,
    images,
    fields,
    errors,
    barcode,
    problems,
    dirty,
    /** The saved pass the page edits, or null. */
    savedId: mine ? saved.id : null,
    busy: saving.isPending,
    status,
    error,
    /** Changes each time the pass is saved (the wallet links are asked for again). */
    version,
    change,
    setImage,
    save,
    open,
    deleted,
    startNew,
  };
}
