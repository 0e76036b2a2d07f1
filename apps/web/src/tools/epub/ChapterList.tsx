import type { EpubChapter } from '@tinkerdesk/tools/epub';
import { useRef, type Dispatch } from 'react';
import type { Chapter, DraftAction } from './use-epub-draft';

/** The chapters, in the book's order: each with its title, format and text; moved by dragging or the arrows, removed (not the last), and added. */
export function ChapterList({ chapters, dispatch }: { chapters: readonly Chapter[]; dispatch: Dispatch<DraftAction> }) {
  const dragged = useRef<number | null>(null);
  const change = (key: number, patch: Partial<EpubChapter>) => dispatch({ type: 'change-chapter', key, patch });
  const move = (from: number, to: number) => dispatch({ type: 'move-chapter', from, to });
  return (
    <section aria-label="Chapters" className="epub-chapters">
      <h2 className="pane-title">Chapters</h2>
      <ol className="epub-chapter-list">
        {chapters.map((chapter, i) => (
          <li
            key={chapter.key}
            className="epub-chapter"
            draggable
            onDragStart={(e) => {
              if ((e.target as HTMLElement).closest('input, textarea, select')) return;
              dragged.current = i;
              e.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(e) => {
              if (dragged.current !== null) e.preventDefault();
            }}
            onDrop={(e) => {
              e.preventDefault();
              if (dragged.current !== null) move(dragged.current, i);
              dragged.current = null;
            }}
          >
            <fieldset>
              <legend>
                <span className="drag-handle" aria-hidden="true">
                  ⠿
                </span>{' '}
                Chapter {i + 1}
              </legend>
              <div className="epub-chapter-head">
                <div className="field">
                  <label htmlFor={`chapter-${chapter.key}-title`}>Chapter {i + 1} title</label>
                  <input
                    id={`chapter-${chapter.key}-title`}
                    type="text"
                    value={chapter.title}
                    onChange={(e) => change(chapter.key, { title: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`chapter-${chapter.key}-format`}>Chapter {i + 1} format</label>
                  <select
                    id={`chapter-${chapter.key}-format`}
                    value={chapter.format}
                    onChange={(e) => change(chapter.key, { format: e.target.value as 'markdown' | 'html' })}
                  >
                    <option value="markdown">Markdown</option>
                    <option value="html">HTML</option>
                  </select>
                </div>
                <div className="inline-field epub-chapter-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => move(i, i - 1)}
                    disabled={i === 0}
                    aria-label={`Move chapter ${i + 1} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => move(i, i + 1)}
                    disabled={i === chapters.length - 1}
                    aria-label={`Move chapter ${i + 1} down`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => dispatch({ type: 'remove-chapter', key: chapter.key })}
                    disabled={chapters.length === 1}
                    aria-label={`Remove chapter ${i + 1}`}
                  >
                    Remove
                  </button>
                </div>
              </div>
              <label className="visually-hidden" htmlFor={`chapter-${chapter.key}-text`}>
                Chapter {i + 1} text
              </label>
              <textarea
                id={`chapter-${chapter.key}-text`}
                rows={8}
                value={chapter.content}
                onChange={(e) => change(chapter.key, { content: e.target.value })}
                placeholder={
                  chapter.format === 'markdown'
                    ? 'Write in Markdown: # headings, *emphasis*, lists, ![image](name.png)…'
                    : 'Paste HTML: <p>…</p>'
                }
              />
            </fieldset>
          </li>
        ))}
      </ol>
      <button type="button" className="button" onClick={() => dispatch({ type: 'add-chapter' })}>
        Add chapter
      </button>
    </section>
  );
}
