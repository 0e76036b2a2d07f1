import { formatSize } from './format';

/** The file a tool is working on, in place of the text input: name, size, type, and a way to drop it. */
export function FileCard({ file, onRemove, detail }: { file: File; onRemove: () => void; detail?: string }) {
  return (
    <div className="file-card">
      <div className="file-card-text">
        <strong className="file-card-name">{file.name || 'Pasted file'}</strong>
        <span>
          {formatSize(file.size)}
          {file.type ? ` · ${file.type}` : ''}
          {detail ? ` · ${detail}` : ''}
        </span>
      </div>
      <button type="button" className="button button-small" onClick={onRemove}>
        Remove file
      </button>
    </div>
  );
}
