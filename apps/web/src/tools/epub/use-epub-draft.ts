import type { EpubBook, EpubChapter, EpubImage } from '@tinkerdesk/tools/epub';
import { useEffect, useMemo, useReducer } from 'react';
import { getSetting, putSetting } from '../../shared/ui/history';

const DRAFT = 'epub:draft';
/** The cover and images, kept apart from the text so typing does not write them again each time. */
const DRAFT_IMAGES = 'epub:images';

/** A chapter on the page: its key stays the same while it moves. */
export type Chapter = EpubChapter & { key: number };
type Details = Pick<EpubBook, 'title' | 'author' | 'language'>;
interface Draft extends Details {
  chapters: EpubChapter[];
}
interface Pictures {
  cover?: EpubImage | null;
  images?: EpubImage[];
}

export interface BookDraft extends Details {
  chapters: Chapter[];
  cover: EpubImage | null;
  images: EpubImage[];
  /** Whether the kept draft was read (changes are kept only after that). */
  loaded: boolean;
}

export type DraftAction =
  | { type: 'restore'; draft?: Draft; pictures?: Pictures }
  | { type: 'details'; patch: Partial<Details> }
  | { type: 'add-chapter' }
  | { type: 'change-chapter'; key: number; patch: Partial<EpubChapter> }
  | { type: 'move-chapter'; from: number; to: number }
  | { type: 'remove-chapter'; key: number }
  | { type: 'cover'; image: EpubImage | null }
  | { type: 'add-images'; images: EpubImage[] }
  | { type: 'remove-image'; image: EpubImage };

let nextKey = 1;
const newChapter = (n: number): Chapter => ({ key: nextKey++, title: `Chapter ${n}`, format: 'markdown', content: '' });
const plain = (chapters: readonly Chapter[]): EpubChapter[] => chapters.map(({ title, format, content }) => ({ title, format, content }));

export function initialDraft(language = typeof navigator === 'undefined' ? 'en' : navigator.language || 'en'): BookDraft {
  return { title: '', author: '', language, chapters: [newChapter(1)], cover: null, images: [], loaded: false };
}

/** The book being written: its details, chapters (added, changed, moved, removed; never fewer than one), cover and images. */
export function draftReducer(state: BookDraft, action: DraftAction): BookDraft {
  const chapters = state.chapters;
  switch (action.type) {
    case 'restore': {
      const { draft, pictures } = action;
      const next = { ...state, loaded: true };
      if (draft && Array.isArray(draft.chapters) && draft.chapters.length > 0)
        Object.assign(next, {
          title: draft.title,
          author: draft.author,
          language: draft.language,
          chapters: draft.chapters.map((c) => ({ ...c, key: nextKey++ })),
        });
      if (pictures?.cover) next.cover = pictures.cover;
      if (Array.isArray(pictures?.images)) next.images = pictures.images;
      return next;
    }
    case 'details':
      return { ...state, ...action.patch };
    case 'add-chapter':
      return { ...state, chapters: [...chapters, newChapter(chapters.length + 1)] };
    case 'change-chapter':
      return { ...state, chapters: chapters.map((c) => (c.key === action.key ? { ...c, ...action.patch } : c)) };
    case 'move-chapter': {
      const { from, to } = action;
      if (to < 0 || to >= chapters.length || from === to) return state;
      const next = [...chapters];
      const [item] = next.splice(from, 1);
      next.splice(to, 0, item!);
      return { ...state, chapters: next };
    }
    case 'remove-chapter':
      return chapters.length === 1 ? state : { ...state, chapters: chapters.filter((c) => c.key !== action.key) };
    case 'cover':
      return { ...state, cover: action.image };
    case 'add-images': {
      const added = action.images;
      return { ...state, images: [...state.images.filter((i) => !added.some((a) => a.name === i.name)), ...added] };
    }
    case 'remove-image':
      return { ...state, images: state.images.filter((i) => i !== action.image) };
  }
}

/**
 * The EPUB tool's draft: the state machine above, kept in this browser (the text 400 ms after typing
 * stops, the pictures when they change) and read back on opening; `book` is what the worker makes.
 * `onImagesNotKept` hears when the browser's storage refuses the pictures.
 */
export function useEpubDraft(onImagesNotKept: (message: string) => void) {
  const [draft, dispatch] = useReducer(draftReducer, undefined, () => initialDraft());
  const { title, author, language, chapters, cover, images, loaded } = draft;

  useEffect(() => {
    let live = true;
    Promise.all([getSetting(DRAFT).catch(() => undefined), getSetting(DRAFT_IMAGES).catch(() => undefined)])
      .then(([text, pictures]) => live && dispatch({ type: 'restore', draft: text as Draft | undefined, pictures: pictures as Pictures }))
      .catch(() => live && dispatch({ type: 'restore' }));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => void putSetting(DRAFT, { title, author, language, chapters: plain(chapters) }), 400);
    return () => clearTimeout(timer);
  }, [loaded, title, author, language, chapters]);
  useEffect(() => {
    if (!loaded) return;
    putSetting(DRAFT_IMAGES, { cover, images }).catch(() =>
      onImagesNotKept('The pictures could not be kept in this browser (too large for its storage?); they stay until you leave the page.'),
    );
  }, [loaded, cover, images, onImagesNotKept]);

  const book = useMemo(
    (): EpubBook => ({ title, author, language, cover: cover ?? undefined, images, chapters: plain(chapters) }),
    [title, author, language, cover, images, chapters],
  );
  return { draft, dispatch, book };
}
