/** Newer / Older buttons and "11–20 of 42" for a list paged by offset and limit (nothing when one page holds it all). */
export function Pager({
  offset,
  total,
  pageSize,
  onMove,
  label,
}: {
  offset: number;
  total: number;
  pageSize: number;
  onMove: (offset: number) => void;
  label: string;
}) {
  if (total <= pageSize) return null;
  return (
    <nav className="actions" aria-label={`${label} pages`}>
      <button type="button" className="button button-small" disabled={offset === 0} onClick={() => onMove(Math.max(0, offset - pageSize))}>
        Newer
      </button>
      <span className="muted">
        {offset + 1}–{Math.min(offset + pageSize, total)} of {total}
      </span>
      <button type="button" className="button button-small" disabled={offset + pageSize >= total} onClick={() => onMove(offset + pageSize)}>
        Older
      </button>
    </nav>
  );
}
