/// <reference lib="webworker" />
import { buildEpub, type EpubBook, type EpubResult } from '@tinkerdesk/tools/epub';
import { serveWorkerTask } from '../kit/worker-task';

// Building the book (Markdown, HTML clean-up, ZIP) happens here, so a long book never freezes the page.
serveWorkerTask<EpubBook, EpubResult>(async (book) => {
  const result = buildEpub(book);
  return { result, transfer: [result.bytes.buffer] };
});
