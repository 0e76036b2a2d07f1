/**
 * One connection to the signed-in user's live stream (GET /v1/events/stream; docs/api.md "Live events"),
 * read with fetch (the token goes in the Authorization header, never in the URL) and the
 * SSE parser. Resolves when the stream ends; rejects with ApiError for a refusal (401, 429).
 */
import type { LiveEvent } from '@tinkerdesk/contracts/web';
import { apiErrorOf } from '@tinkerdesk/api-client';
import { NetworkError, v1 } from '../api';
import { SseParser } from './sse';

export interface LiveConnection {
  /** The id of the last event received: sent as Last-Event-ID to get what was missed. */
  lastEventId: string;
  onOpen(): void;
  onEvent(event: LiveEvent): void;
  signal: AbortSignal;
}

export async function readLiveStream(c: LiveConnection): Promise<void> {
  const answer = await v1
    .GET('/v1/events/stream', {
      parseAs: 'stream',
      signal: c.signal,
      headers: { accept: 'text/event-stream' },
      ...(c.lastEventId ? { params: { header: { 'Last-Event-ID': c.lastEventId } } } : {}),
    })
    .catch((error: unknown) => {
      if (c.signal.aborted) throw error;
      throw new NetworkError(error);
    });
  if (!answer.response.ok || !answer.data) throw apiErrorOf(answer.response, answer.error);
  c.onOpen();
  const parser = new SseParser();
  parser.lastEventId = c.lastEventId;
  const reader = answer.data.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    for (const frame of parser.push(value)) {
      c.lastEventId = parser.lastEventId;
      if (frame.event === 'end') continue;
      try {
        const event = JSON.parse(frame.data) as LiveEvent;
        if (event && typeof event.type === 'string') c.onEvent(event);
      } catch {
        // not an event of ours: skipped
      }
    }
  }
}
