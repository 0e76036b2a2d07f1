import { codesToCsv } from '@tinkerdesk/tools/barcode-read';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useAsyncValue } from '../../shared/ui/use-async-value';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';
import { CodeCard } from './CodeCard';
import type { DecodeResult } from './decode-job';
import { decodablePicture } from './picture';
import { useDecoder } from './use-decoder';

const SETTINGS = { harder: setting.flag(true) };
/** Larger files are refused before decoding: no picture of a barcode is this big. */
const MAX_FILE = 100 * 1024 * 1024;

type Outcome = { value: DecodeResult; error?: undefined } | { value?: undefined; error: string };

export default function BarcodeDecoderPage(_: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [file, setFile] = useState<File | null>(null);
  /** What is decoded and shown: the file, or an SVG file drawn as PNG. */
  const [picture, setPicture] = useState<Blob | null>(null);
  const opened = useRef(0);
  const [refused, setRefused] = useState('');
  const { run, busy } = useDecoder();
  const compute = useMemo(
    () =>
      picture
        ? () =>
            run({ image: picture, tryHarder: settings.harder }).then(
              (value): Outcome | undefined => (value ? { value } : undefined),
              (error: unknown): Outcome => ({ error: error instanceof Error ? error.message : String(error) }),
            )
        : null,
    [picture, settings.harder, run],
  );
  const outcome = useAsyncValue(compute);
  const url = useMemo(() => (picture ? URL.createObjectURL(picture) : undefined), [picture]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);

  const open = (files: File[]) => {
    const [picked] = files;
    if (!picked) return;
    if (picked.size > MAX_FILE) {
      setRefused(`That file is ${formatSize(picked.size)}; images up to ${formatSize(MAX_FILE)} can be decoded.`);
      setFile(null);
      return;
    }
    setRefused('');
    setFile(picked);
    setPicture(null);
    const n = ++opened.current;
    decodablePicture(picked).then(
      (drawn) => n === opened.current && setPicture(drawn),
      (error: unknown) => n === opened.current && setRefused(error instanceof Error ? error.message : String(error)),
    );
  };
  const result = outcome?.value;
  const codes = result?.codes ?? [];
  const error = refused || outcome?.error;

  return (
    <>
      <div className="tool-form" role="group" aria-label="Options">
        <label className="checkbox-label">
          <input type="checkbox" checked={settings.harder} onChange={(e) => update({ harder: e.target.checked })} />
          Try harder (small, damaged, rotated or inverted codes; slower)
        </label>
      </div>
      <FileDrop onFiles={open} accept="image/*,.svg" label="Choose image">
        Drop a picture with barcodes here or paste it (Ctrl+V)
      </FileDrop>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {file && !error ? (
        <div className="decoder-layout">
          <figure className="decoder-figure">
            <div className="decoder-stage">
              {result ? <img src={url} alt={`The picture: ${file.name}`} width={result.width} height={result.height} /> : null}
              {result ? (
                <svg
                  className="decoder-overlay"
                  viewBox={`0 0 ${result.width} ${result.height}`}
                  preserveAspectRatio="none"
                  role="img"
                  aria-label={`Positions of ${codes.length} codes found`}
                >
                  {codes.map((code, i) => {
                    const [x, y] = code.corners[0] ?? [0, 0];
                    const size = Math.max(14, Math.min(result.width, result.height) / 18);
                    return (
                      <g key={i}>
                        <polygon points={code.corners.map((p) => p.join(',')).join(' ')} vectorEffect="non-scaling-stroke" />
                        <circle cx={x} cy={y} r={size * 0.75} />
                        <text x={x} y={y} fontSize={size} dominantBaseline="central" textAnchor="middle">
                          {i + 1}
                        </text>
                      </g>
                    );
                  })}
                </svg>
              ) : null}
            </div>
            <figcaption>
              {file.name} · {formatSize(file.size)}
              {result ? ` · ${result.width} × ${result.height} px` : ''}
            </figcaption>
          </figure>
          <section className="decoder-results" aria-label="Results" aria-busy={busy}>
            {!result ? (
              <p role="status">Looking for barcodes…</p>
            ) : codes.length === 0 ? (
              <p role="status" className="empty-state-text">
                No barcode found in this picture. Try a sharper or larger picture with the whole code in view
                {settings.harder ? '' : ', or turn on Try harder'}.
              </p>
            ) : (
              <>
                <div className="text-pane-head">
                  <h2 className="pane-title" role="status">
                    {codes.length === 1 ? 'Found 1 code' : `Found ${codes.length} codes`}
                  </h2>
                  <div className="text-pane-actions">
                    <CopyButton text={() => codes.map((c) => c.text).join('\n')} label="Copy all" />
                    <DownloadButton
                      data={() => codesToCsv(codes)}
                      filename={`${file.name.replace(/\.[^.]+$/, '')}-barcodes.csv`}
                      type="text/csv;charset=utf-8"
                      label="Download CSV"
                    />
                  </div>
                </div>
                <ol className="code-list">
                  {codes.map((code, i) => (
                    <CodeCard key={i} code={code} number={i + 1} />
                  ))}
                </ol>
              </>
            )}
          </section>
        </div>
      ) : null}
      <ToolAbout>
        <p>
          Reads every barcode in a picture with ZXing-C++, the most complete open-source barcode reader, running in your browser as
          WebAssembly: QR Code, Micro QR and rMQR, Data Matrix, Aztec, PDF417 and MicroPDF417, MaxiCode, Code 128, Code 39, Code 93,
          Codabar, ITF, EAN-13, EAN-8, UPC-A, UPC-E (with add-ons), GS1 DataBar, Telepen and DX film edge. Each code found is numbered on
          the picture; its text can be copied or, for a web address, opened.
        </p>
        <p>
          Drop a photo or screenshot, pick one, or paste it from the clipboard. The picture never leaves your device. QR codes in a photo
          decode best when the code fills a fair part of the frame and is in focus.
        </p>
      </ToolAbout>
    </>
  );
}
