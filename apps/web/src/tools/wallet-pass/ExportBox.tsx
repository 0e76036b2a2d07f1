import { GOOGLE_ISSUER_PLACEHOLDER } from '@tinkerdesk/tools/wallet-pass';
import { useMemo } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { exportStem, type PassDraft, type PassFields } from './draft';
import { googleJson } from './export';
import type { ImageSlot, PassImage } from './images';

export function ExportBox({
  draft,
  fields,
  images,
  savedId,
  problems,
}: {
  draft: PassDraft;
  fields: PassFields;
  images: Partial<Record<ImageSlot, PassImage>>;
  savedId: string | null;
  problems: boolean;
}) {
  const json = useMemo(() => googleJson(fields, draft.id, images, location.origin), [fields, draft.id, images]);
  const unsavedPictures = (['logo', 'hero'] as const).filter((slot) => images[slot]?.kind === 'local');
  return (
    <section className="wallet-actions" aria-labelledby="wallet-export-title">
      <h2 id="wallet-export-title">Export for the Google Wallet API</h2>
      <p className="wallet-hint">
        A GenericClass and a GenericObject in Google's REST format, with <code>{GOOGLE_ISSUER_PLACEHOLDER}</code> in place of your issuer
        id.
        {unsavedPictures.length > 0
          ? savedId
            ? ' Save to include the new pictures (Google loads them from a web address).'
            : ' Pictures are included once the pass is saved (Google loads them from a web address).'
          : ''}
      </p>
      <div className="wallet-buttons">
        <DownloadButton
          data={json}
          filename={`${exportStem(draft)}.google-wallet.json`}
          type="application/json"
          label="Download JSON"
          disabled={problems}
          saveable={false}
        />
        <CopyButton text={json} label="Copy JSON" disabled={problems} />
      </div>
      {problems ? <p className="wallet-hint">Fix the marked fields to export the pass.</p> : null}
    </section>
  );
}
