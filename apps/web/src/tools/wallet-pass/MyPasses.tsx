import { useId, useState } from 'react';
import { errorText } from '../../shared/api';
import { InlineConfirm } from '../../shared/InlineConfirm';
import { Pager } from '../../shared/Pager';
import { PASS_SORTS, type PassSort, type PassView, type SortDirection } from './api';
import { useDeletePass, usePasses } from './hooks';

const PAGE = 10;
const SORT_NAMES: Record<PassSort, string> = { created: 'Created', modified: 'Last changed', cardTitle: 'Card title', header: 'Header' };

const dateTime = (value: string) => {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

/**
 * The signed-in user's passes: sorted and paged on the server (the total from x-list-count), each
 * opened to edit or deleted after a confirm. Saving a pass on the page reloads the list (hooks.ts).
 */
export function MyPasses({
  currentId,
  dirty,
  onOpen,
  onDeleted,
}: {
  currentId: string | null;
  /** The page has unsaved changes: opening another pass asks first. */
  dirty: boolean;
  onOpen: (pass: PassView) => void;
  onDeleted: (id: string) => void;
}) {
  const [sort, setSort] = useState<PassSort>('modified');
  const [dir, setDir] = useState<SortDirection>('DESC');
  const [offset, setOffset] = useState(0);
  const passes = usePasses({ limit: PAGE, offset, sort, dir });
  const list = passes.data ?? null;
  const deletion = useDeletePass();
  const failure = deletion.error ?? passes.error;
  const error = failure ? errorText(failure) : '';
  const [confirming, setConfirming] = useState<{ id: string; what: 'delete' | 'open' } | null>(null);
  const [message, setMessage] = useState('');
  const id = useId();

  // A page emptied by a delete steps back to the one before (set while rendering: the next page's key has no answer yet).
  if (!passes.isPlaceholderData && list !== null && list.passes.length === 0 && offset > 0 && list.total > 0) {
    setOffset(Math.max(0, offset - PAGE));
  }

  function remove(pass: PassView) {
    deletion.mutate(pass.id, {
      onSuccess: () => {
        setConfirming(null);
        setMessage(`Deleted "${pass.header}".`);
        onDeleted(pass.id);
      },
    });
  }

  return (
    <section className="wallet-passes" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>My passes</h2>
      <div className="wallet-list-controls">
        <span className="wallet-list-field">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select
            id={`${id}-sort`}
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as PassSort);
              setOffset(0);
            }}
          >
            {PASS_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_NAMES[s]}
              </option>
            ))}
          </select>
        </span>
        <span className="wallet-list-field">
          <label htmlFor={`${id}-dir`}>Order</label>
          <select
            id={`${id}-dir`}
            value={dir}
            onChange={(e) => {
              setDir(e.target.value as SortDirection);
              setOffset(0);
            }}
          >
            <option value="ASC">{sort === 'cardTitle' || sort === 'header' ? 'A to Z' : 'Oldest first'}</option>
            <option value="DESC">{sort === 'cardTitle' || sort === 'header' ? 'Z to A' : 'Newest first'}</option>
          </select>
        </span>
        {list ? (
          <span className="muted" aria-live="polite">
            {list.total === 1 ? '1 pass' : `${list.total} passes`}
          </span>
        ) : null}
      </div>
      <p className="visually-hidden" role="status">
        {message}
      </p>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : null}
      {list === null && !error ? <p role="status">Loading your passes…</p> : null}
      {list && list.passes.length === 0 && list.total === 0 ? (
        <div className="empty-state">
          <p>
            <strong>No passes yet.</strong>
          </p>
          <p>Design a pass above and press Save: it is kept here, and you can open it again to change it or add it to a wallet.</p>
        </div>
      ) : null}
      {list && list.passes.length > 0 ? (
        <ul className="wallet-pass-list" aria-label="My passes">
          {list.passes.map((pass) => (
            <li key={pass.id} className={pass.id === currentId ? 'wallet-pass-item current' : 'wallet-pass-item'}>
              <span className="wallet-swatch" style={{ background: pass.backgroundColor }} aria-hidden="true" />
              <span className="wallet-pass-text">
                <strong>
                  {pass.cardTitle} · {pass.header}
                </strong>
                <span className="muted">
                  {pass.modified !== pass.created ? `Changed ${dateTime(pass.modified)}` : `Created ${dateTime(pass.created)}`}
                  {pass.id === currentId ? ' · open above' : ''}
                </span>
              </span>
              <span className="wallet-pass-actions">
                {confirming?.id === pass.id && confirming.what === 'open' ? (
                  <InlineConfirm
                    label={`Open ${pass.header}?`}
                    question="Discard the unsaved changes above?"
                    action="Open"
                    keep="Keep editing"
                    onConfirm={() => {
                      setConfirming(null);
                      onOpen(pass);
                    }}
                    onCancel={() => setConfirming(null)}
                  />
                ) : confirming?.id === pass.id ? (
                  <InlineConfirm
                    label={`Delete ${pass.header}?`}
                    question="Delete this pass?"
                    action="Delete"
                    busy={deletion.isPending}
                    onConfirm={() => remove(pass)}
                    onCancel={() => setConfirming(null)}
                  />
                ) : (
                  <>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => (dirty ? setConfirming({ id: pass.id, what: 'open' }) : onOpen(pass))}
                      aria-label={`Open ${pass.cardTitle} ${pass.header}`}
                    >
                      Open
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => setConfirming({ id: pass.id, what: 'delete' })}
                      aria-label={`Delete ${pass.cardTitle} ${pass.header}`}
                    >
                      Delete
                    </button>
                  </>
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {list ? <Pager offset={offset} total={list.total} pageSize={PAGE} onMove={setOffset} label="My passes" /> : null}
    </section>
  );
}
