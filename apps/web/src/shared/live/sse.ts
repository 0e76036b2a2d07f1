/**
 * A small reader of Server-Sent Events (the text/event-stream format, as the HTML standard parses
 * it): fed the stream's text in chunks of any size, it gives each complete event (id, event, data);
 * comment lines (heartbeats) and `retry:` are taken but give no event. EventSource cannot send an
 * Authorization header, so the live stream is read with fetch and this.
 */
export interface SseEvent {
  /** The id of this event, or of the last one that named one (the stream's Last-Event-ID). */
  id: string;
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private started = false;
  /** The last id the stream named (what a reconnect sends as Last-Event-ID). */
  lastEventId = '';
  /** The reconnect delay the server asked for (`retry:`), in ms, if it did. */
  retryMs: number | undefined;

  /** Takes a chunk of the stream's text; answers the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (!this.started) return undefined;
      const event = { id: this.lastEventId, event: this.event || 'message', data: this.data.join('\n') };
      this.data = [];
      this.event = '';
      this.started = false;
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.started = true;
    } else if (field === 'event') {
      this.event = value;
    } else if (field === 'id' && !value.includes('\0')) {
      this.lastEventId = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) {
      this.retryMs = Number(value);
    }
    return undefined;
  }
}
