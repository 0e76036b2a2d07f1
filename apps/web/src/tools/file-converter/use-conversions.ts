/**
 * The converter's state machine: each file or URL added is an item that goes ready → uploading (with
 * the upload's progress) → converting (the job's progress, told by the live stream; polled only
 * while the stream is down) → done or failed. Starting,
 * finishing and removing jobs reload the recent conversions.
 */
import { detectSourceFormat, LIVE_EVENTS, sourceFormat, type ConversionJobView, type SourceFormat } from '@tinkerdesk/contracts/web';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../shared/api';
import { onLiveEvent, useLiveConnected } from '../../shared/live/live-bus';
import { useSession } from '../../shared/session/session';
import { convertUrl, getJob, uploadForConversion } from './api';
import { useReloadRecent } from './queries';

export type Status = 'ready' | 'uploading' | 'converting' | 'done' | 'failed';

export interface Item {
  key: string;
  file?: File;
  url?: string;
  format?: SourceFormat;
  to: string;
  status: Status;
  /** Upload progress (0–1) while uploading; the job's progress after. */
  upload: number;
  job?: ConversionJobView;
  error?: string;
}

/** The option fields of the page (all text, as typed). */
export type ConversionOptions = Record<'width' | 'height' | 'quality' | 'dpi' | 'firstPage' | 'lastPage', string>;

/** The poll while the live stream is down (while it is up, the stream tells of every step). */
export const POLL_MS = 700;
const PARALLEL = 3;
const FINISHED = new Set(['completed', 'failed', 'cancelled', 'expired']);

function firstTarget(format: SourceFormat | undefined): string {
  return format?.to.includes('pdf') ? 'pdf' : (format?.to[0] ?? '');
}

let counter = 0;

/** The options a job of this format takes, from the page's option fields. */
function optionsFor(format: SourceFormat | undefined, options: ConversionOptions): Record<string, string> {
  const pick = (...keys: Array<keyof ConversionOptions>) =>
    Object.fromEntries(keys.filter((k) => options[k].trim()).map((k) => [k, options[k].trim()]));
  if (format?.kind === 'image') return pick('width', 'height', 'quality');
  if (format?.kind === 'pdf') return pick('dpi', 'firstPage', 'lastPage');
  return {};
}

const isReady = (item: Item) => item.status === 'ready' && Boolean(item.format) && Boolean(item.to);

/**
 * `offered`: the formats the server converts now (undefined until known); a file whose format it
 * leaves out (its engine is on no live worker) is not ready, so "Convert all" neither shows for it
 * nor sends it.
 */
export function useConversions(options: ConversionOptions, offered?: ReadonlyMap<string, unknown>) {
  const { token } = useSession();
  const reloadRecent = useReloadRecent();
  const [items, setItems] = useState<Item[]>([]);
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);

  const patch = useCallback(
    (key: string, change: Partial<Item>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i))),
    [],
  );

  // The progress the live stream told of, by job (100 completed, -1 failed): an event can come before
  // the upload's answer has made its item a converting one.
  const heard = useRef(new Map<string, number>());
  useEffect(
    () =>
      onLiveEvent((event) => {
        const { jobId, progress } = event.ids;
        if (event.type === LIVE_EVENTS.conversionProgress && typeof jobId === 'string' && typeof progress === 'number')
          heard.current.set(jobId, progress);
      }),
    [],
  );

  // Follows every job that is converting until it finishes. While the live stream is up it tells of
  // each step: the progress is shown from the event, and the job is read once, when it has finished
  // (for its result's size, or its error). While the stream is down the jobs are polled every POLL_MS;
  // when it comes back, each is read once (what it missed meanwhile is not told again).
  // The jobs converting (the effect runs again when one starts, in case the stream told of it already).
  const converting = items
    .filter((i) => i.status === 'converting')
    .map((i) => i.job?.id)
    .join(' ');
  const live = useLiveConnected();
  const wasLive = useRef(live);
  useEffect(() => {
    const cameBack = live && !wasLive.current;
    wasLive.current = live;
    if (!token || !converting) return;
    const controller = new AbortController();
    const reading = new Set<string>();
    const read = (item: Item) => {
      if (item.status !== 'converting' || !item.job || reading.has(item.key)) return;
      reading.add(item.key);
      getJob(item.job.id, controller.signal).then(
        (job) => {
          reading.delete(item.key);
          if (!FINISHED.has(job.state)) return patch(item.key, { job });
          patch(item.key, { job, status: job.state === 'completed' ? 'done' : 'failed', ...(job.error ? { error: job.error } : {}) });
          reloadRecent();
        },
        (error: unknown) => {
          reading.delete(item.key);
          if (!(error instanceof DOMException)) patch(item.key, { status: 'failed', error: errorText(error) });
        },
      );
    };
    /** What the stream told of a converting item's job: its progress shown, or its end read. */
    const follow = (item: Item) => {
      const progress = item.job ? heard.current.get(item.job.id) : undefined;
      if (item.status !== 'converting' || !item.job || progress === undefined) return;
      if (progress < 0 || progress >= 100) read(item);
      else if (progress > item.job.progress) patch(item.key, { job: { ...item.job, state: 'active', progress } });
    };
    if (!live) {
      const timer = setInterval(() => itemsRef.current.forEach(read), POLL_MS);
      return () => {
        clearInterval(timer);
        controller.abort();
      };
    }
    itemsRef.current.forEach(cameBack ? read : follow);
    const stop = onLiveEvent((event) => {
      if (event.type !== LIVE_EVENTS.conversionProgress) return;
      const item = itemsRef.current.find((i) => i.job?.id === event.ids.jobId);
      if (item) follow(item);
    });
    return () => {
      stop();
      controller.abort();
    };
    // The items are read through the ref: this runs while anything converts.
  }, [token, converting, live, patch, reloadRecent]);

  function addFiles(files: File[]) {
    setItems((list) => [
      ...list,
      ...files.map((file): Item => {
        const format = detectSourceFormat(file.name, file.type);
        return { key: `f${++counter}`, file, ...(format ? { format } : {}), to: firstTarget(format), status: 'ready', upload: 0 };
      }),
    ]);
  }

  /** A URL: a web page (converted as one) or a file whose format is found when fetched. */
  function addUrl(url: string, kind: 'page' | 'file', to: string) {
    const format = kind === 'page' ? sourceFormat('url') : undefined;
    setItems((list) => [...list, { key: `u${++counter}`, url, ...(format ? { format } : {}), to, status: 'ready', upload: 0 }]);
  }

  async function start(item: Item) {
    if (!token) return;
    setItems((list) => list.map((i) => (i.key === item.key ? { ...i, status: 'uploading', upload: 0, error: undefined } : i)));
    try {
      const extra = optionsFor(item.format, options);
      const job = item.file
        ? await uploadForConversion(
            item.file,
            { to: item.to, ...(item.format ? { from: item.format.id } : {}), ...extra },
            token,
            (fraction) => patch(item.key, { upload: fraction }),
          )
        : await convertUrl(item.url ?? '', item.to, item.format?.id);
      // A small file's job can have finished before the upload's answer (upload?wait=).
      if (FINISHED.has(job.state))
        patch(item.key, {
          job,
          upload: 1,
          status: job.state === 'completed' ? 'done' : 'failed',
          ...(job.error ? { error: job.error } : {}),
        });
      else patch(item.key, { status: 'converting', job, upload: 1 });
      reloadRecent();
    } catch (error) {
      patch(item.key, { status: 'failed', error: errorText(error) });
    }
  }

  const canStart = (item: Item) => isReady(item) && (!offered || !item.format || offered.has(item.format.id));

  async function startAll() {
    const ready = items.filter(canStart);
    for (let i = 0; i < ready.length; i += PARALLEL) await Promise.all(ready.slice(i, i + PARALLEL).map((item) => start(item)));
  }

  return {
    items,
    anyReady: items.some(canStart),
    addFiles,
    addUrl,
    start,
    startAll,
    setTarget: (key: string, to: string) => patch(key, { to }),
    discard: (key: string) => setItems((list) => list.filter((i) => i.key !== key)),
    /** A job deleted from the recent list leaves the page's list too. */
    forgetJob: (jobId: string) => setItems((list) => list.filter((i) => i.job?.id !== jobId)),
  };
}
