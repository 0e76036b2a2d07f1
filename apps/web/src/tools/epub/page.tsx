import { useEffect, useState } from 'react';
import { saveFile } from '../../shared/ui/actions';
import { formatSize } from '../../shared/ui/format';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useWorkerTask } from '../../shared/ui/use-worker-task';
import type { ToolPageProps } from '../types';
import { ChapterList } from './ChapterList';
import { EpubMedia } from './EpubMedia';
import type { EpubAnswer, EpubTask } from './epub-task';
import { toBookImage } from './images';
import { useEpubDraft } from './use-epub-draft';

const createWorker = () => new Worker(new URL('./epub.worker.ts', import.meta.url), { type: 'module' });
const LANGUAGES = [
  'en',
  'en-GB',
  'de',
  'fr',
  'es',
  'it',
  'pt-BR',
  'nl',
  'pl',
  'ru',
  'uk',
  'ar',
  'he',
  'hi',
  'ja',
  'ko',
  'zh-Hans',
  'zh-Hant',
  'tr',
  'sv',
];

export default function EpubPage(_: ToolPageProps) {
  const [error, setError] = useState('');
  // The book is kept in this browser as a draft: its text, and its cover and images (in the local database).
  const { draft, dispatch, book } = useEpubDraft(setError);
  /** What making the book would change (or the problem that stops it), reviewed as the book is written. */
  const [review, setReview] = useState<{ notes: string[]; error?: string }>({ notes: [] });
  const [built, setBuilt] = useState<{ size: number } | null>(null);
  const { run, busy } = useWorkerTask<EpubTask, EpubAnswer>(createWorker);
  const reviewer = useWorkerTask<EpubTask, EpubAnswer>(createWorker, { keepAlive: true });
  const runReview = reviewer.run;

  // Reviewed as it is written: what will be left out or changed is known before the download.
  useEffect(() => {
    if (!draft.loaded) return;
    const timer = setTimeout(() => {
      runReview({ kind: 'review', book }).then(
        (answer) => answer?.kind === 'review' && setReview({ notes: answer.notes, error: answer.error }),
        () => undefined,
      );
    }, 400);
    return () => clearTimeout(timer);
  }, [draft.loaded, book, runReview]);

  async function addImages(files: File[], asCover: boolean) {
    setError('');
    try {
      const converted = await Promise.all(files.map(toBookImage));
      dispatch(asCover ? { type: 'cover', image: converted[0] ?? null } : { type: 'add-images', images: converted });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  async function download() {
    setError('');
    setBuilt(null);
    try {
      const answer = await run({ kind: 'build', book });
      if (answer?.kind !== 'build') return;
      const result = answer.result;
      setReview({ notes: result.notes });
      setBuilt({ size: result.bytes.byteLength });
      const stem =
        draft.title
          .trim()
          .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 100) || 'book';
      saveFile(new Blob([result.bytes as BlobPart], { type: 'application/epub+zip' }), `${stem}.epub`);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  return (
    <>
      <div className="tool-form" role="group" aria-label="Book">
        <div className="field">
          <label htmlFor="epub-title">Title</label>
          <input
            id="epub-title"
            type="text"
            value={draft.title}
            onChange={(e) => dispatch({ type: 'details', patch: { title: e.target.value } })}
            placeholder="The book's title"
          />
        </div>
        <div className="field">
          <label htmlFor="epub-author">Author</label>
          <input
            id="epub-author"
            type="text"
            value={draft.author}
            onChange={(e) => dispatch({ type: 'details', patch: { author: e.target.value } })}
            placeholder="Who wrote it"
          />
        </div>
        <div className="field">
          <label htmlFor="epub-language">Language</label>
          <input
            id="epub-language"
            type="text"
            list="epub-languages"
            value={draft.language}
            onChange={(e) => dispatch({ type: 'details', patch: { language: e.target.value } })}
            spellCheck={false}
          />
          <datalist id="epub-languages">
            {LANGUAGES.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </div>
      </div>

      <EpubMedia
        cover={draft.cover}
        images={draft.images}
        onFiles={(files, asCover) => void addImages(files, asCover)}
        dispatch={dispatch}
      />
      <ChapterList chapters={draft.chapters} dispatch={dispatch} />

      <section aria-label="Table of contents" className="epub-box epub-toc">
        <h2 className="pane-title">Table of contents</h2>
        <ol>
          {draft.chapters.map((c, i) => (
            <li key={c.key}>{c.title.trim() || `Chapter ${i + 1}`}</li>
          ))}
        </ol>
        <div className="inline-field">
          <button type="button" className="button button-primary" onClick={() => void download()} disabled={busy}>
            {busy ? 'Making the book…' : 'Download EPUB'}
          </button>
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        {built ? (
          <p role="status" className="notice">
            The EPUB ({formatSize(built.size)}) is downloaded.
          </p>
        ) : null}
      </section>
      <div className="epub-review" aria-live="polite">
        {review.error && !error ? <p className="hint">Before the book can be made: {review.error}</p> : null}
        {review.notes.length > 0 ? (
          <div className="notice" role="group" aria-label="What the book will change">
            <p>To keep the book valid, making it will change this:</p>
            <ul>
              {review.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>

      <ToolAbout>
        <p>
          Makes an EPUB 3 e-book that reads on Apple Books, Kobo, Google Play Books, Thorium and Calibre (and that Amazon accepts for
          Kindle): a title, an author, the language, a cover, and chapters written in Markdown or pasted as HTML, in the order you give them
          (drag them or use the arrows). The table of contents is made from the chapter titles.
        </p>
        <p>
          Pasted HTML is cleaned to what e-books allow: scripts, forms, frames, styles and unknown markup are left out, and you are told.
          Pictures come from the Images list (WebP and other formats are turned into PNG). Every book passes epubcheck, the reference
          validator. The text, the cover and the images are kept as a draft in this browser&apos;s local database; nothing is uploaded.
        </p>
      </ToolAbout>
    </>
  );
}
