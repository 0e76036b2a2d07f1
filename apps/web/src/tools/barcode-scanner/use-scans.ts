import type { FoundCode } from '@tinkerdesk/tools/barcode-read';
import { useCallback, useEffect, useRef, useState } from 'react';
import { beepIfEnabled } from '../../shared/hardware/connection';
import { session } from '../../shared/session/session';
import type { HistoryRecord } from '../../shared/storage/db';
import { deleteScans, recordScan, toolScans } from '../../shared/ui/history';
import { ScanFeedback } from './feedback';

/** The same code seen again within this time is the same scan, not a new one. */
const REPEAT_MS = 3000;

export type Scan = HistoryRecord & { data: Pick<FoundCode, 'format' | 'text' | 'bytesHex'> };

/**
 * The scanned codes of the tool, newest first, kept in this browser's history: each new code (not the
 * same one held in view) beeps and vibrates as the settings say, beeps a connected beeper, and is
 * recorded. The list can be cleared (after a prompt) or a code removed.
 */
export function useScans(toolId: string, settings: { beep: boolean; vibrate: boolean }) {
  const [scans, setScans] = useState<Scan[] | null>(null);
  const [last, setLast] = useState<FoundCode | null>(null);
  const seen = useRef(new Map<string, number>());
  const feedback = useRef<ScanFeedback | null>(null);
  const options = useRef(settings);

  useEffect(() => {
    options.current = settings;
  }, [settings]);

  useEffect(() => {
    let alive = true;
    toolScans(toolId).then(
      (records) => alive && setScans(records as Scan[]),
      () => alive && setScans([]),
    );
    return () => {
      alive = false;
    };
  }, [toolId]);

  useEffect(() => () => feedback.current?.close(), []);

  /** Readies the beep and vibration (inside the click that starts the camera, as browsers want). */
  const unlockFeedback = useCallback(() => {
    feedback.current ??= new ScanFeedback();
    feedback.current.unlock();
  }, []);

  const found = useCallback(
    (codes: FoundCode[]) => {
      const now = Date.now();
      for (const code of codes) {
        const key = `${code.format}\u0000${code.text}`;
        const before = seen.current.get(key);
        seen.current.set(key, now);
        if (before !== undefined && now - before < REPEAT_MS) continue;
        if (options.current.beep) feedback.current?.beep();
        if (options.current.vibrate) feedback.current?.vibrate();
        void beepIfEnabled('scan');
        setLast(code);
        void recordScan(toolId, { format: code.format, text: code.text, bytesHex: code.bytesHex }).then((record) =>
          setScans((list) => [record as Scan, ...(list ?? [])]),
        );
      }
    },
    [toolId],
  );

  async function clear() {
    const answer = await session.prompt({
      tag: 'clear-scans',
      title: 'Clear the scanned codes?',
      content: 'This forgets every code in the list, in this browser. It cannot be undone.',
      buttons: [
        { title: 'Cancel', value: 'cancel' },
        { title: 'Clear list', value: 'clear', primary: true },
      ],
    });
    if (answer !== 'clear') return;
    await deleteScans(toolId);
    seen.current.clear();
    setScans([]);
  }

  async function remove(id: string) {
    await deleteScans(toolId, id);
    setScans((list) => (list ?? []).filter((s) => s.id !== id));
  }

  /** `scans` is null while loading. */
  return { scans, last, found, unlockFeedback, clear, remove };
}
