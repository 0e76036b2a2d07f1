import { PageRangeError, parsePageRange } from '@tinkerdesk/tools/page-range';
import { zipSync } from 'fflate';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useId, useRef, useState } from 'react';
import { saveFile } from '../../shared/ui/actions';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { ProgressBar } from '../../shared/ui/progress';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';
import { openPdf, PdfOpenError, renderPage, type PasswordAsk, type RenderedPage } from './pdf';

const SETTINGS = {
  format: setting.choice(['png', 'jpeg'] as const, 'png'),
  dpi: setting.integer(150, 36, 1200),
  quality: setting.integer(90, 1, 100),
};
const DPI_CHOICES = [72, 96, 150, 200, 300, 600];
const MAX_FILE = 512 * 1024 * 1024;

type Shown = RenderedPage & { url: string; name: string };
type Asking = { reason: 'need' | 'wrong'; answer: (password: string | null) => void };

export default function PdfToImagePage(_: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [file, setFile] = useState<File | null>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [opening, setOpening] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [range, setRange] = useState('');
  const [rangeError, setRangeError] = useState('');
  const [pages, setPages] = useState<Shown[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const run = useRef(0);
  const passwordId = useId();
  const ext = settings.format === 'png' ? 'png' : 'jpg';
  const stem = file ? file.name.replace(/\.pdf$/i, '') || 'document' : 'document';

  // Object URLs of pages no longer shown are released (the ones still shown stay valid for their download links).
  const shown = useRef(new Set<string>());
  useEffect(() => {
    const now = new Set(pages.map((p) => p.url));
    for (const url of shown.current) if (!now.has(url)) URL.revokeObjectURL(url);
    shown.current = now;
  }, [pages]);
  useEffect(() => {
    const urls = shown;
    return () => urls.current.forEach((url) => URL.revokeObjectURL(url));
  }, []);
  useEffect(() => () => void doc?.loadingTask.destroy(), [doc]);

  const ask: PasswordAsk = (reason) =>
    new Promise((resolve) => {
      setPassword('');
      setAsking({
        reason,
        answer: (value) => {
          setAsking(null);
          resolve(value);
        },
      });
    });

  async function convert(target: PDFDocumentProxy, rangeText: string, fileName: string) {
    const base = fileName.replace(/\.pdf$/i, '') || 'document';
    let numbers: number[];
    try {
      numbers = parsePageRange(rangeText, target.numPages);
      setRangeError('');
    } catch (failure) {
      setRangeError(failure instanceof PageRangeError ? failure.message : String(failure));
      return;
    }
    const token = ++run.current;
    setError('');
    setPages([]);
    setProgress({ done: 0, total: numbers.length });
    const digits = String(target.numPages).length;
    const type = settings.format === 'png' ? 'image/png' : 'image/jpeg';
    const done: Shown[] = [];
    try {
      for (const number of numbers) {
        const rendered = await renderPage(target, number, settings.dpi, type, settings.quality / 100);
        if (run.current !== token) return;
        done.push({ ...rendered, url: URL.createObjectURL(rendered.blob), name: `${base}-${String(number).padStart(digits, '0')}.${ext}` });
        setPages([...done]);
        setProgress({ done: done.length, total: numbers.length });
      }
    } catch (failure) {
      if (run.current === token) setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      if (run.current === token) setProgress(null);
    }
  }

  async function open(files: File[]) {
    const [picked] = files;
    if (!picked) return;
    run.current++;
    asking?.answer(null);
    setDoc(null);
    setPages([]);
    setProgress(null);
    setRange('');
    setRangeError('');
    setError('');
    if (picked.size > MAX_FILE) {
      setFile(null);
      setError(`That file is ${formatSize(picked.size)}; PDFs up to ${formatSize(MAX_FILE)} can be converted.`);
      return;
    }
    setFile(picked);
    setOpening(true);
    const token = run.current;
    try {
      const opened = await openPdf(new Uint8Array(await picked.arrayBuffer()), ask);
      if (run.current !== token) {
        void opened.loadingTask.destroy();
        return;
      }
      setDoc(opened);
      setOpening(false);
      await convert(opened, '', picked.name);
    } catch (failure) {
      if (run.current !== token) return;
      setOpening(false);
      setError(failure instanceof PdfOpenError ? failure.message : String(failure));
    }
  }

  function downloadZip() {
    const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
    void Promise.all(pages.map(async (p) => [p.name, new Uint8Array(await p.blob.arrayBuffer())] as const)).then((list) => {
      for (const [name, bytes] of list) entries[name] = [bytes, { level: 0 }];
      saveFile(new Blob([zipSync(entries) as BlobPart], { type: 'application/zip' }), `${stem}-${ext}.zip`);
    });
  }

  const busy = progress !== null;
  return (
    <>
      <div className="tool-form" role="group" aria-label="Output settings">
        <div className="field">
          <label htmlFor="pdf-format">Format</label>
          <select id="pdf-format" value={settings.format} onChange={(e) => update({ format: e.target.value as 'png' | 'jpeg' })}>
            <option value="png">PNG</option>
            <option value="jpeg">JPG</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="pdf-dpi">Resolution (DPI)</label>
          <select id="pdf-dpi" value={settings.dpi} onChange={(e) => update({ dpi: Number(e.target.value) })}>
            {[...new Set([...DPI_CHOICES, settings.dpi])]
              .sort((a, b) => a - b)
              .map((dpi) => (
                <option key={dpi} value={dpi}>
                  {dpi} DPI{dpi === 72 ? ' (screen)' : dpi === 150 ? ' (good)' : dpi === 300 ? ' (print)' : ''}
                </option>
              ))}
          </select>
        </div>
        {settings.format === 'jpeg' ? (
          <div className="field">
            <label htmlFor="pdf-quality">JPG quality</label>
            <input
              id="pdf-quality"
              type="number"
              min={1}
              max={100}
              value={settings.quality}
              onChange={(e) => update({ quality: Math.min(100, Math.max(1, Number(e.target.value) || 90)) })}
            />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="pdf-pages">Pages</label>
          <input
            id="pdf-pages"
            type="text"
            value={range}
            placeholder="All, or e.g. 1-3, 5, 8-"
            onChange={(e) => setRange(e.target.value)}
            aria-invalid={rangeError ? true : undefined}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && doc && file) void convert(doc, range, file.name);
            }}
          />
        </div>
        <button
          type="button"
          className="button button-primary"
          disabled={!doc || busy}
          onClick={() => doc && file && void convert(doc, range, file.name)}
        >
          Convert
        </button>
        {rangeError ? (
          <p className="field-error" role="alert">
            {rangeError}
          </p>
        ) : null}
      </div>
      <FileDrop onFiles={(files) => void open(files)} accept="application/pdf,.pdf" label="Choose PDF">
        Drop a PDF here or paste it
      </FileDrop>
      {asking ? (
        <form
          className="tool-form pdf-password"
          onSubmit={(e) => {
            e.preventDefault();
            asking.answer(password);
          }}
        >
          <p className={asking.reason === 'wrong' ? 'field-error' : undefined} role={asking.reason === 'wrong' ? 'alert' : 'status'}>
            {asking.reason === 'wrong' ? 'That password is not right. Try again.' : 'This PDF is protected by a password.'}
          </p>
          <div className="field">
            <label htmlFor={passwordId}>PDF password</label>
            <input
              id={passwordId}
              type="password"
              autoComplete="off"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoFocus
            />
          </div>
          <div className="inline-field">
            <button type="submit" className="button button-primary">
              Open
            </button>
            <button type="button" className="button" onClick={() => asking.answer(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {opening && !asking ? <p role="status">Opening {file?.name}…</p> : null}
      {doc && file ? (
        <section className="pdf-results" aria-label="Rendered pages" aria-busy={busy}>
          <div className="text-pane-head">
            <h2 className="pane-title">
              {file.name} · {doc.numPages} {doc.numPages === 1 ? 'page' : 'pages'}
            </h2>
            <div className="text-pane-actions">
              {pages.length === 1 ? (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => saveFile(pages[0]!.blob, pages[0]!.name)}
                  disabled={busy}
                >
                  Download {ext.toUpperCase()}
                </button>
              ) : null}
              <button type="button" className="button button-small" onClick={downloadZip} disabled={busy || pages.length === 0}>
                Download all (ZIP)
              </button>
            </div>
          </div>
          {progress ? (
            <ProgressBar
              value={progress.total ? progress.done / progress.total : 0}
              label={`Page ${Math.min(progress.done + 1, progress.total)} of ${progress.total}`}
            />
          ) : null}
          <ol className="pdf-pages">
            {pages.map((p) => (
              <li key={p.page} className="pdf-page">
                <img src={p.url} alt={`Page ${p.page}`} loading="lazy" width={p.width} height={p.height} />
                <span className="pdf-page-info">
                  Page {p.page} · {p.width} × {p.height} px · {formatSize(p.blob.size)}
                </span>
                <button type="button" className="button button-small" onClick={() => saveFile(p.blob, p.name)}>
                  Download page {p.page}
                </button>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <ToolAbout>
        <p>
          Turns the pages of a PDF into PNG or JPG pictures with pdf.js, the PDF engine of Firefox: choose the pages (1-3, 5, 8-), the
          resolution (72 DPI for screens, 300 for print) and, for JPG, the quality. Each page shows as it is done; download one, or all in a
          ZIP. PDFs with a password ask for it; it stays on this page.
        </p>
        <p>The PDF is read in a background worker on this device and never uploaded. Pages are drawn on white paper, as printed.</p>
      </ToolAbout>
    </>
  );
}
