import { SYMBOLOGIES } from '@tinkerdesk/tools/barcode-symbols';
import { isTwoDimensional } from '@tinkerdesk/tools/barcode';
import { WALLET_BARCODE_TYPES, type WalletBarcodeType } from '@tinkerdesk/tools/wallet-pass';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { PATHS, signInPath } from '../../routes/paths';
import { errorText } from '../../shared/api';
import { InlineConfirm } from '../../shared/InlineConfirm';
import { useSession } from '../../shared/session/session';
import type { RenderJob } from '../barcode-creator/render-job';
import { useBarcode } from '../barcode-creator/use-barcode';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import type { ToolPageProps } from '../types';
import { getPass, savePass, type PassView } from './api';
import { draftErrors, draftOf, exportStem, newDraft, passFields, type DraftField, type PassDraft } from './draft';
import { useStoredDraft, type SavedState, type StoredDraft } from './draft-store';
import { ExportBox } from './ExportBox';
import type { ImageSlot, PassImage, SavedImage } from './images';
import { MyPasses } from './MyPasses';
import { PassDesigner, type BarcodeChoice } from './PassDesigner';
import { PassPreview } from './PassPreview';
import { WalletButtons } from './WalletButtons';
import './wallet-pass.css';

const SYMBOLS = new Map(SYMBOLOGIES.map((s) => [s.bcid, s]));
// Samples a scanner reads and Google Wallet accepts as they are (bwip-js's ITF-14 sample has spaces, its QR one a retired shortener).
const SAMPLES: Partial<Record<WalletBarcodeType, string>> = { qrcode: 'https://tinkerdesk.dev', itf14: '09521234543213' };
const sampleOf = (type: WalletBarcodeType): string => SAMPLES[type] ?? SYMBOLS.get(type)?.text ?? '';
const BARCODES: BarcodeChoice[] = WALLET_BARCODE_TYPES.map((bcid) => ({ bcid, label: SYMBOLS.get(bcid)?.desc ?? bcid }));

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

type Images = Partial<Record<ImageSlot, PassImage>>;

function savedImage(view: { url: string; width: number; height: number } | null | undefined): SavedImage | undefined {
  return view ? { kind: 'saved', url: view.url, width: view.width, height: view.height } : undefined;
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

export default function WalletPassPage(_props: ToolPageProps) {
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
  // Drawn again only when the type or the data changes (not for the alternate text, say).
  const barcodeType = fields.barcode?.type;
  const barcodeValue = fields.barcode?.value;
  const barcodeJob = useMemo<RenderJob | null>(() => {
    if (!barcodeType || barcodeValue === undefined) return null;
    const twoD = isTwoDimensional(barcodeType);
    return {
      bcid: barcodeType,
      text: barcodeValue,
      scale: twoD ? 4 : 3,
      height: twoD ? undefined : 14,
      // Quiet zones, as the wallet draws them (and scanners need).
      margin: twoD ? 2 : 10,
      barColor: '#000000',
      backgroundColor: '#ffffff',
      includeText: false,
      extra: {},
    };
  }, [barcodeType, barcodeValue]);
  const barcode = useBarcode(barcodeJob);
  const barcodeError = fields.barcode ? barcode.error : undefined;
  const problems = Object.keys(errors).length > 0 || Boolean(barcodeError);
  const key = stateKey(draft, images);
  // Changes not in the account: against the saved pass, or for a pass never saved, anything but the untouched sample.
  // The saved pass the page edits: the draft's, saved in the account signed in.
  const mine = saved !== null && saved.id === draft.id && saved.owner === me;
  const dirty = mine ? saved.key !== key : key !== PRISTINE;

  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [version, setVersion] = useState(0);
  const [confirmNew, setConfirmNew] = useState(false);

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
          ? errors.barcodeValue || barcodeError
          : errors[key],
    );
    let id = first?.[1];
    if (first?.[0] === 'row') {
      const row = draft.textRows.find((r) => errors[`row-${r.key}`]);
      id = row ? `wallet-row-${row.key}-${row.body.trim() ? 'header' : 'body'}` : undefined;
    }
    if (id) document.getElementById(id)?.focus();
    setError(`Fix the marked fields to ${action}.`);
  }

  async function save() {
    if (!token || !me) return;
    setError('');
    setStatus('');
    if (problems) return showProblems('save the pass');
    // A pass saved by another account signed in here before is not this one's: it is saved as a new
    // pass (its stored pictures, the other account's, stay out).
    const foreign = saved !== null && saved.id === draft.id && saved.owner !== me;
    const sentDraft = foreign ? { ...draft, id: crypto.randomUUID() } : draft;
    const id = sentDraft.id;
    const sentImages: Images = foreign
      ? (Object.fromEntries(Object.entries(images).filter(([, i]) => i.kind === 'local')) as Images)
      : images;
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
    setBusy(true);
    try {
      const { pass, created } = await savePass(id, passFields(sentDraft), files, remove);
      const nextImages: Images = {};
      const logo = savedImage(pass.logo);
      const hero = savedImage(pass.hero);
      if (logo) nextImages.logo = logo;
      if (hero) nextImages.hero = hero;
      // Changes made while saving stay (and stay unsaved); the pictures sent become the server's.
      setImages((now) => ({
        ...(now.logo === sentImages.logo ? { ...(logo ? { logo } : {}) } : now.logo ? { logo: now.logo } : {}),
        ...(now.hero === sentImages.hero ? { ...(hero ? { hero } : {}) } : now.hero ? { hero: now.hero } : {}),
      }));
      setSaved(savedStateOf(pass, me, sentDraft, nextImages));
      setVersion((v) => v + 1);
      setStatus(created ? `Saved "${pass.header}" as a new pass.` : `Saved the changes to "${pass.header}".`);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  async function open(pass: PassView) {
    if (!token || !me) return;
    setError('');
    setStatus('');
    try {
      const fresh = await getPass(pass.id);
      const next = draftOf(fresh);
      const nextImages: Images = {};
      const logo = savedImage(fresh.logo);
      const hero = savedImage(fresh.hero);
      if (logo) nextImages.logo = logo;
      if (hero) nextImages.hero = hero;
      setDraft(next);
      setImages(nextImages);
      setSaved(savedStateOf(fresh, me, next, nextImages));
      setStatus(`Opened "${fresh.header}". Change it and press Save.`);
      document.getElementById('wallet-cardTitle')?.focus();
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  const deleted = useCallback(
    (id: string) => {
      if (draft.id !== id) return;
      // The design stays on the page as a new, unsaved pass; the deleted pictures are gone with it.
      setDraft((d) => ({ ...d, id: crypto.randomUUID() }));
      setImages((list) => Object.fromEntries(Object.entries(list).filter(([, i]) => i.kind === 'local')) as Images);
      setSaved(null);
    },
    [draft.id],
  );

  function startNew() {
    setDraft(newDraft());
    setImages({});
    setSaved(null);
    setConfirmNew(false);
    setError('');
    setStatus('Started a new pass.');
  }

  const savedId = mine ? saved.id : null;

  return (
    <>
      <div className="wallet-layout" aria-busy={!loaded}>
        <PassDesigner
          draft={draft}
          onChange={change}
          errors={errors}
          barcodeError={barcodeError}
          barcodes={BARCODES}
          images={images}
          onImage={setImage}
        />
        <div className="wallet-side">
          <PassPreview
            fields={fields}
            images={images}
            barcode={fields.barcode ? { url: barcode.url, error: barcodeError } : null}
            busy={barcode.busy}
          />

          <section className="wallet-actions" aria-labelledby="wallet-save-title">
            <h2 id="wallet-save-title">Save and add to a wallet</h2>
            {!session.ready ? (
              <p role="status">Loading…</p>
            ) : token ? (
              <>
                <div className="wallet-buttons">
                  <button type="button" className="button button-primary" onClick={() => void save()} disabled={busy}>
                    {busy ? 'Saving…' : 'Save'}
                  </button>
                  {confirmNew ? (
                    <InlineConfirm
                      label="Start a new pass?"
                      question="Discard the unsaved changes?"
                      action="New pass"
                      onConfirm={startNew}
                      onCancel={() => setConfirmNew(false)}
                    />
                  ) : (
                    <button type="button" className="button" onClick={() => (dirty ? setConfirmNew(true) : startNew())}>
                      New pass
                    </button>
                  )}
                </div>
                <p className="wallet-hint">
                  {savedId
                    ? dirty
                      ? 'This pass has unsaved changes.'
                      : 'Saved: everything on the page is in your account.'
                    : 'Not saved yet.'}
                </p>
                {/* Always there, so screen readers hear each new message. */}
                <p className={status ? 'notice notice-success' : 'visually-hidden'} role="status">
                  {status}
                </p>
                {error ? (
                  <p className="notice notice-error" role="alert">
                    {error}
                  </p>
                ) : null}
                <WalletButtons token={token} id={savedId} version={version} dirty={dirty} fields={fields} stem={exportStem(draft)} />
              </>
            ) : (
              <p className="notice" role="note">
                <strong>Sign in to save this pass and get its wallet links.</strong> Designing and the JSON export work without an account.{' '}
                <Link to={signInPath('/tools/wallet/google/')}>Sign in</Link> or <Link to={PATHS.register}>create a free account</Link>.
              </p>
            )}
          </section>

          <ExportBox draft={draft} fields={fields} images={images} savedId={savedId} problems={problems} />
        </div>
      </div>

      {token ? (
        <MyPasses token={token} currentId={savedId} dirty={dirty} version={version} onOpen={(p) => void open(p)} onDeleted={deleted} />
      ) : null}

      <ToolAbout>
        <p>
          Design a generic Google Wallet pass (a membership or loyalty card, a ticket, a badge) and see it as the wallet shows it while you
          type: the card title beside your logo, the header, up to {10} rows of text, a barcode of any type Google Wallet shows (QR Code,
          Aztec, PDF417, Data Matrix, Code 128, Code 39, EAN-13, EAN-8, UPC-A, ITF-14, Codabar) and a hero image. The barcode is drawn by
          the barcode creator, so data that does not fit its type (letters in an EAN-13, a wrong check digit) is named at once.
        </p>
        <p>
          Download or copy the pass as JSON in Google's REST format (a GenericClass and a GenericObject) to send with your own issuer
          account. Signed in, Save keeps the pass in your account, and when the site's operator has set up a Google Wallet issuer, "Add to
          Google Wallet" opens Google's page that adds it to a phone (an Apple Wallet pass is offered the same way). The draft is kept in
          this browser, so a reload loses nothing.
        </p>
      </ToolAbout>
    </>
  );
}
