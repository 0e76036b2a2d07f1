import { useState } from 'react';
import type { ToolPageProps } from '../types';
import { ExportBox } from './ExportBox';
import { MyPasses } from './MyPasses';
import { PassDesigner } from './PassDesigner';
import { PassPreview } from './PassPreview';
import { BARCODES } from './samples';
import { SaveSection } from './SaveSection';
import { usePassEditor } from './use-pass-editor';
import { WalletAbout } from './WalletAbout';
import './wallet-pass.css';

export default function WalletPassPage(_props: ToolPageProps) {
  const editor = usePassEditor();
  const { draft, images, fields, barcode, savedId } = editor;
  // On a phone the preview is docked above the fields while editing; it can be folded away.
  const [previewShown, setPreviewShown] = useState(true);
  return (
    <>
      <div className="wallet-layout" aria-busy={!editor.loaded}>
        <PassDesigner
          draft={draft}
          onChange={editor.change}
          errors={editor.errors}
          barcodeError={barcode.error}
          barcodes={BARCODES}
          images={images}
          onImage={editor.setImage}
        />
        <div className="wallet-side">
          <div className={previewShown ? 'wallet-preview-dock' : 'wallet-preview-dock folded'}>
            <button
              type="button"
              className="link-button wallet-preview-toggle"
              aria-expanded={previewShown}
              onClick={() => setPreviewShown((shown) => !shown)}
            >
              {previewShown ? 'Hide the preview' : 'Show the preview'}
            </button>
            <PassPreview
              fields={fields}
              images={images}
              barcode={fields.barcode ? { url: barcode.url, error: barcode.error } : null}
              busy={barcode.busy}
            />
          </div>
          <SaveSection editor={editor} />
          <ExportBox draft={draft} fields={fields} images={images} savedId={savedId} problems={editor.problems} />
        </div>
      </div>

      {editor.token ? <MyPasses currentId={savedId} dirty={editor.dirty} onOpen={editor.open} onDeleted={editor.deleted} /> : null}

      <WalletAbout />
    </>
  );
}
