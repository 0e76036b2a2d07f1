import { useEffect, useRef, useState } from 'react';
import { SaveToFilesButton } from './SaveToFilesButton';

type CopyState = 'idle' | 'copied' | 'failed';

/** A copy button's state, kept for the content it was about: other content shows 'idle' again. */
function useCopyState(about: unknown): [CopyState, (state: CopyState) => void] {
  const [state, setState] = useState<{ kind: CopyState; about: unknown }>({ kind: 'idle', about: undefined });
  const set = (kind: CopyState) => setState({ kind, about });
  return [state.about === about ? state.kind : 'idle', set];
}

/**
 * Copies text to the clipboard; says "Copied" for a moment (announced to screen readers). A Blob of text
 * (a large result kept out of the page) is handed to the clipboard as it is. With rich, an HTML flavour
 * goes beside the text, so rich-text editors paste formatted content and plain fields the text.
 */
export function CopyButton({
  text,
  label = 'Copy',
  disabled,
  rich,
}: {
  text: string | (() => string) | Blob;
  label?: string;
  disabled?: boolean;
  rich?: () => Blob;
}) {
  // "Copied" is about the text that was copied: it goes when that text changes or clears (a function's
  // text is read at copy time, so for it only the button turning disabled counts).
  const shownText = typeof text === 'function' ? undefined : text;
  const [copied, setState] = useCopyState(shownText);
  const state = disabled ? 'idle' : copied;
  const timer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  async function copy() {
    try {
      if (rich) {
        const plain = text instanceof Blob ? text : typeof text === 'function' ? text() : text;
        await navigator.clipboard.write([
          new ClipboardItem({
            'text/plain': new Blob([plain], { type: 'text/plain' }),
            'text/html': new Blob([rich()], { type: 'text/html' }),
          }),
        ]);
      } else if (text instanceof Blob) {
        await navigator.clipboard.write([new ClipboardItem({ 'text/plain': new Blob([text], { type: 'text/plain' }) })]);
      } else await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setState('idle'), 2000);
  }
  return (
    <button type="button" className="button button-small" onClick={() => void copy()} disabled={disabled} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}

/** Saves data as a file. */
export function saveFile(data: Blob | string, filename: string, type = 'text/plain;charset=utf-8'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function DownloadButton({
  data,
  filename,
  type,
  label = 'Download',
  disabled,
  saveable = true,
}: {
  data: Blob | string | (() => Blob | string);
  filename: string;
  type?: string;
  label?: string;
  disabled?: boolean;
  /** Offers "Save to my files" beside it to signed-in users (off where a download is not a result). */
  saveable?: boolean;
}) {
  return (
    <>
      <button
        type="button"
        className="button button-small"
        disabled={disabled}
        onClick={() => saveFile(typeof data === 'function' ? data() : data, filename, type)}
      >
        {label}
      </button>
      {saveable ? (
        <SaveToFilesButton data={data} filename={filename} {...(type ? { type } : {})} {...(disabled ? { disabled } : {})} />
      ) : null}
    </>
  );
}

/** Copies a PNG image to the clipboard (the one image type every browser's clipboard takes). */
export function CopyImageButton({ png, label = 'Copy image' }: { png?: Blob; label?: string }) {
  const [state, setState] = useCopyState(png);
  const timer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  async function copy() {
    if (!png) return;
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setState('idle'), 2000);
  }
  return (
    <button type="button" className="button button-small" onClick={() => void copy()} disabled={!png} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}

/** The PNG / JPG choice of the image tools' export row. */
export function ImageFormatSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: 'png' | 'jpeg';
  onChange: (value: 'png' | 'jpeg') => void;
}) {
  return (
    <span className="annotate-option">
      <label htmlFor={id}>Format</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as 'png' | 'jpeg')}>
        <option value="png">PNG</option>
        <option value="jpeg">JPG</option>
      </select>
    </span>
  );
}
