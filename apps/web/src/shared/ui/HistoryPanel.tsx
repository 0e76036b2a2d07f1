import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { session } from '../session/session';
import type { HistoryRecord } from '../storage/db';
import './kit.css';
import { clearHistory, keepInputs, recentTools, setKeepInputs } from './history';

/** Recently used tools from the local history, the opt-in for keeping inputs, and a way to clear it all. */
export function HistoryPanel() {
  const [records, setRecords] = useState<HistoryRecord[] | null>(null);
  const [keep, setKeep] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all([recentTools(8), keepInputs()])
      .then(([history, kept]) => {
        if (!live) return;
        setRecords(history);
        setKeep(kept);
      })
      .catch(() => live && setRecords([]));
    return () => {
      live = false;
    };
  }, [version]);

  // Until the history is read (the local database opens after the page has loaded), the panel keeps its
  // place, empty and invisible, so the tools below it do not move when it appears.
  const loading = records === null;

  async function clear() {
    const answer = await session.prompt({
      tag: 'clear-history',
      title: 'Clear the history?',
      content: 'This forgets the tools you used and any inputs kept in this browser. It cannot be undone.',
      buttons: [
        { title: 'Cancel', value: 'cancel' },
        { title: 'Clear history', value: 'clear', primary: true },
      ],
    });
    if (answer !== 'clear') return;
    await clearHistory();
    session.notify({ tag: 'history', type: 'success', content: 'The history is cleared.', timeout: 4000 });
    setVersion((v) => v + 1);
  }

  return (
    <section
      className={loading ? 'history-panel history-panel-loading card account-card' : 'history-panel card account-card'}
      aria-labelledby="history-heading"
      aria-hidden={loading || undefined}
    >
      <h2 id="history-heading">Recently used</h2>
      {records === null || records.length === 0 ? (
        <p className="empty-state-text">Tools you open appear here. The history stays in this browser.</p>
      ) : (
        <ul>
          {records.map((r) => {
            const data = r.data as { name: string; path: string };
            return (
              <li key={r.id}>
                <Link className="chip" to={data.path}>
                  {data.name}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <div className="history-controls">
        <label>
          <input
            type="checkbox"
            checked={keep}
            onChange={(event) => {
              const value = event.target.checked;
              setKeep(value);
              void setKeepInputs(value);
            }}
          />{' '}
          Keep my recent inputs in this browser
        </label>
        <button type="button" className="button button-small" onClick={() => void clear()}>
          Clear history
        </button>
      </div>
    </section>
  );
}
