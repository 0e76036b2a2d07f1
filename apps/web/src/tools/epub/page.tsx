import type { EpubBook, EpubChapter, EpubImage } from '@tinkerdesk/tools/epub';
import { useEffect, useMemo, useRef, useState } from 'react';
import { saveFile } from '../../shared/ui/actions';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { getSetting, putSetting } from '../../shared/ui/history';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useWorkerTask } from '../../shared/ui/use-worker-task';
import type { ToolPageProps } from '../types';
import type { EpubAnswer, EpubTask } from './epub-task';
import { toBookImage } from './images';

const createWorker = () => new Worker(new URL('./epub.worker.ts', import.meta.url), { type: 'module' });
const DRAFT = 'epub:draft';
/** The cover and images, kept apart from the text so typing does not write them again each time. */
const DRAFT_IMAGES = 'epub:images';
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

type Chapter = EpubChapter & { key: number };
interface Draft {
  title: string;
  author: string;
  language: string;
  chapters: EpubChapter[];
}

let nextKey = 1;
const newChapter = (n: number): Chapter => ({ key: nextKey++, title: `Chapter ${n}`, format: 'markdown', content: '' });

function ImagePreview({ image }: { image: EpubImage }) {
  const url = useMemo(() => URL.createObjectURL(new Blob([image.bytes as BlobPart], { type: image.mediaType })), [image]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img src={url} alt="" className="epub-thumb" />;
}

export default function EpubPage(_: ToolPageProps) {
  const [title, setTitle] = useState('');
  const [author, setAuthor] = useState('');
  const [language, setLanguage] = useState(() => (typeof navigator === 'undefined' ? 'en' : navigator.language || 'en'));
  const [chapters, setChapters] = useState<Chapter[]>(() => [newChapter(1)]);
  const [cover, setCover] = useState<EpubImage | null>(null);
  const [images, setImages] = useState<EpubImage[]>([]);
  const [error, setError] = useState('');
  /** What making the book would change (or the problem that stops it), reviewed as the book is written. */
  const [review, setReview] = useState<{ notes: string[]; error?: string }>({ notes: [] });
  const [built, setBuilt] = useState<{ size: number } | null>(null);
  const [loaded, setLoaded] = useState(false);
  const dragged = useRef<number | null>(null);
  const { run, busy } = useWorkerTask<EpubTask, EpubAnswer>(createWorker);
  const reviewer = useWorkerTask<EpubTask, EpubAnswer>(createWorker, { keepAlive: true });
  const runReview = reviewer.run;

  // The book is kept in this browser as a draft: its text, and its cover and images (in the local database).
  useEffect(() => {
    let live = true;
    Promise.all([getSetting(DRAFT).catch(() => undefined), getSetting(DRAFT_IMAGES).catch(() => undefined)])
      .then(([text, pictures]) => {
        if (!live) return;
        const draft = text as Draft | undefined;
        if (draft && Array.isArray(draft.chapters) && draft.chapters.length > 0) {
          setTitle(draft.title);
          setAuthor(draft.author);
          setLanguage(draft.language);
          setChapters(draft.chapters.map((c) => ({ ...c, key: nextKey++ })));
        }
        const kept = pictures as { cover?: EpubImage | null; images?: EpubImage[] } | undefined;
        if (kept?.cover) setCover(kept.cover);
        if (Array.isArray(kept?.images)) setImages(kept.images);
      })
      .finally(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => {
      void putSetting(DRAFT, {
        title,
        author,
        language,
        chapters: chapters.map(({ title: t, format, content }) => ({ title: t, format, content })),
      });
    }, 400);
    return () => clearTimeout(timer);
  }, [loaded, title, author, language, chapters]);
  useEffect(() => {
    if (!loaded) return;
    putSetting(DRAFT_IMAGES, { cover, images }).catch(() =>
      setError('The pictures could not be kept in this browser (too large for its storage?); they stay until you leave the page.'),
    );
  }, [loaded, cover, images]);

  const book = useMemo(
    (): EpubBook => ({
      title,
      author,
      language,
      cover: cover ?? undefined,
      images,
      chapters: chapters.map(({ title: t, format, content }) => ({ title: t, format, content })),
    }),
    [title, author, language, cover, images, chapters],
  );
  // Reviewed as it is written: what will be left out or changed is known before the download.
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => {
      runReview({ kind: 'review', book }).then(
        (answer) => answer?.kind === 'review' && setReview({ notes: answer.notes, error: answer.error }),
        () => undefined,
      );
    }, 400);
    return () => clearTimeout(timer);
  }, [loaded, book, runReview]);

  const change = (key: number, patch: Partial<EpubChapter>) =>
    setChapters((list) => list.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  const move = (from: number, to: number) =>
    setChapters((list) => {
      if (to < 0 || to >= list.length || from === to) return list;
      const next = [...list];
      const [item] = next.splice(from, 1);
      next.splice(to, 0, item!);
      return next;
    });

  async function addImages(files: File[], asCover: boolean) {
    setError('');
    try {
      const converted = await Promise.all(files.map(toBookImage));
      if (asCover) setCover(converted[0] ?? null);
      else setImages((list) => [...list.filter((i) => !converted.some((c) => c.name === i.name)), ...converted]);
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
        title
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
          <input id="epub-title" type="text" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="The book's title" />
        </div>
        <div className="field">
          <label htmlFor="epub-author">Author</label>
          <input id="epub-author" type="text" value={author} onChange={(e) => setAuthor(e.target.value)} placeholder="Who wrote it" />
        </div>
        <div className="field">
          <label htmlFor="epub-language">Language</label>
          <input
            id="epub-language"
            type="text"
            list="epub-languages"
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
            spellCheck={false}
          />
          <datalist id="epub-languages">
            {LANGUAGES.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </div>
      </div>

      <div className="epub-media">
        <section aria-label="Cover" className="epub-box">
          <h2 className="pane-title">Cover</h2>
          {cover ? (
            <div className="epub-image-row">
              <ImagePreview image={cover} />
              <span>
                {cover.name} · {formatSize(cover.bytes.byteLength)}
              </span>
              <button type="button" className="button button-small" onClick={() => setCover(null)}>
                Remove cover
              </button>
            </div>
          ) : (
            <FileDrop onFiles={(files) => void addImages(files, true)} accept="image/*" label="Choose cover">
              Drop the cover picture here
            </FileDrop>
          )}
        </section>
        <section aria-label="Images" className="epub-box">
          <h2 className="pane-title">Images</h2>
          <FileDrop onFiles={(files) => void addImages(files, false)} accept="image/*" multiple label="Choose images">
            Drop pictures for the chapters here
          </FileDrop>
          {images.length > 0 ? (
            <ul className="epub-images">
              {images.map((image) => (
                <li key={image.name} className="epub-image-row">
                  <ImagePreview image={image} />
                  <code>![]({image.name.replace(/ /g, '%20')})</code>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => setImages((list) => list.filter((i) => i !== image))}
                  >
                    Remove {image.name}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty-state-text">
              Put an image in a chapter with ![description](file name) in Markdown or &lt;img src="file name"&gt; in HTML.
            </p>
          )}
        </section>
      </div>

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
                      onClick={() => setChapters((list) => list.filter((c) => c.key !== chapter.key))}
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
        <button type="button" className="button" onClick={() => setChapters((list) => [...list, newChapter(list.length + 1)])}>
          Add chapter
        </button>
      </section>

      <section aria-label="Table of contents" className="epub-box epub-toc">
        <h2 className="pane-title">Table of contents</h2>
        <ol>
          {chapters.map((c, i) => (
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
