import type { ReactNode } from 'react';
import { FileCard } from './FileCard';
import { FileDrop } from './files';
import { ProgressBar } from './progress';
import { TextPane } from './TextPane';

/** The Clear button beside a tool's input. */
export function ClearButton({ onClear, disabled }: { onClear: () => void; disabled?: boolean }) {
  return (
    <button type="button" className="button button-small" onClick={onClear} disabled={disabled}>
      Clear
    </button>
  );
}

/**
 * A tool input that takes text (the "Input" field, with Clear) or a file (dropped, pasted or chosen;
 * shown as a card in place of the field until it is removed). below goes under the field (errors).
 */
export function TextOrFileInput({
  text,
  onText,
  file,
  onFile,
  placeholder,
  dropText,
  info,
  rows,
  below,
  fileDetail,
}: {
  text: string;
  onText: (text: string) => void;
  file: File | null;
  onFile: (file: File | null) => void;
  placeholder: string;
  dropText: string;
  info?: ReactNode;
  rows?: number;
  below?: ReactNode;
  /** Said after the file's size and type on its card (e.g. what it was read as). */
  fileDetail?: string;
}) {
  return (
    <div className="tool-input">
      {file ? (
        <FileCard file={file} onRemove={() => onFile(null)} detail={fileDetail} />
      ) : (
        <TextPane
          id="input"
          label="Input"
          value={text}
          onChange={onText}
          rows={rows}
          placeholder={placeholder}
          info={info}
          actions={<ClearButton onClear={() => onText('')} disabled={!text} />}
        />
      )}
      {below}
      <FileDrop onFiles={([f]) => f && onFile(f)}>{dropText}</FileDrop>
    </div>
  );
}

/** Progress of a long task, with a way to stop it; nothing when idle. */
export function TaskProgress({
  busy,
  progress,
  label,
  onCancel,
}: {
  busy: boolean;
  progress: number;
  label: string;
  onCancel: () => void;
}) {
  if (!busy) return null;
  return (
    <div className="tool-progress">
      <ProgressBar value={progress} label={label} />
      <button type="button" className="button button-small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
