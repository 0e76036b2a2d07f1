/// <reference lib="webworker" />
import { buildEpub, reviewBook } from '@tinkerdesk/tools/epub';
import { serveWorkerTask } from '../../shared/ui/worker-task';
import type { EpubAnswer, EpubTask } from './epub-task';

// Building the book (Markdown, HTML clean-up, ZIP) and reviewing it as it is written happen here, so a
// long book never freezes the page.
serveWorkerTask<EpubTask, EpubAnswer>(async (task) => {
  if (task.kind === 'review') return { result: { kind: 'review', ...reviewBook(task.book) } };
  const result = buildEpub(task.book);
  return { result: { kind: 'build', result }, transfer: [result.bytes.buffer] };
});
