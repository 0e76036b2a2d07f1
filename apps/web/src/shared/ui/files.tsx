import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { LoadFromUrl } from './LoadFromUrl';

/**
 * Where files come in: drop them on the zone, paste them (Ctrl+V anywhere on the page when the focus
 * is not in a text field), choose them with the button, or load one from a URL (fetched by the server
 * for a signed-in user: LoadFromUrl). Dropped and chosen files are not uploaded: onFiles gets File objects.
 */
export function FileDrop({
  onFiles,
  accept,
  multiple = false,
  children,
  label = 'Choose file',
  fromUrl = true,
  paste = 'page',
}: {
  onFiles: (files: File[]) => void;
  accept?: string;
  multiple?: boolean;
  children?: ReactNode;
  label?: string;
  /** Offer "Load from URL" (the server fetches it for a signed-in user). */
  fromUrl?: boolean;
  /**
   * Where a pasted file is taken: 'page' (anywhere on the page outside text fields), or 'zone' (only while
   * the focus is inside this drop zone), for pages with more than one zone, where a paste must go to one.
   */
  paste?: 'page' | 'zone';
}) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const zone = useRef<HTMLDivElement>(null);
  const latest = useRef(onFiles);
  useEffect(() => {
    latest.current = onFiles;
  }, [onFiles]);

  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'TEXTAREA' || (target.tagName === 'INPUT' && (target as HTMLInputElement).type !== 'file'))) return;
      if (paste === 'zone' && !(target && zone.current?.contains(target))) return;
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      latest.current(multiple ? files : files.slice(0, 1));
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [multiple, paste]);

  return (
    <div
      ref={zone}
      className={over ? 'file-drop over' : 'file-drop'}
      // A click on the zone gives it the focus, so Ctrl+V right after lands here.
      tabIndex={paste === 'zone' ? -1 : undefined}
      data-paste={paste === 'zone' ? 'zone' : undefined}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const files = [...event.dataTransfer.files];
        if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
      }}
    >
      <p>
        {children ?? 'Drop a file here or paste it'}, or {/* The full stop stays with the button when the line wraps. */}
        <span className="file-drop-choose">
          <button type="button" className="link-button" onClick={() => input.current?.click()} aria-controls={id}>
            {label.toLowerCase()}
          </button>
          .
        </span>
      </p>
      {fromUrl ? <LoadFromUrl onFile={(file) => latest.current([file])} /> : null}
      <input
        id={id}
        ref={input}
        type="file"
        hidden
        accept={accept}
        multiple={multiple}
        aria-label={label}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}
