/** One Server-Sent Events frame as read: its fields, and whether it held a comment line. */
export interface LiveFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: boolean;
}

/** An event of the live stream: its id, type and ids. */
export interface LiveEventSeen {
  id: string;
  type: string;
  ids: Record<string, unknown>;
}

/**
 * An open live event stream (GET /v1/events/stream, docs/api.md "Live events") read with fetch, as the
 * web app reads it: its frames as they arrive. Or the refusal: status and envelope.
 */
export class LiveStreamReader {
  readonly frames: LiveFrame[] = [];
  ended = false;
  private readonly controller = new AbortController();

  static async open(
    baseUrl: string,
    token: string | undefined,
    lastEventId?: string,
  ): Promise<{ status: number; body?: Record<string, unknown>; stream?: LiveStreamReader }> {
    const s = new LiveStreamReader();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const res = await fetch(`${baseUrl}/v1/events/stream`, { headers, signal: s.controller.signal });
    if (res.status !== 200 || !res.body) return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    if (!/^text\/event-stream/.test(res.headers.get('content-type') ?? ''))
      throw new Error(`not an event stream: ${res.headers.get('content-type')}`);
    void s.read(res.body);
    return { status: 200, stream: s };
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: LiveFrame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comment = true;
            const m = /^(id|event|data): ?(.*)$/.exec(line);
            if (m) frame[m[1] as 'id' | 'event' | 'data'] = m[2];
          }
          this.frames.push(frame);
        }
      }
    } catch {
      // aborted, or the server closed the connection
    }
    this.ended = true;
  }

  /** The events so far (not the `end` frame). */
  events(): LiveEventSeen[] {
    return this.frames
      .filter((f) => f.data && f.event !== 'end')
      .map((f) => ({ id: f.id ?? '', type: f.event ?? '', ids: (JSON.parse(f.data!) as { ids: Record<string, unknown> }).ids }));
  }

  /** The first event of a type (and ids, when given) once it has come. */
  async event(type: string, ids: Record<string, unknown> = {}, ms = 10_000): Promise<LiveEventSeen> {
    return this.until(() => this.events().find((e) => e.type === type && Object.entries(ids).every(([k, v]) => e.ids[k] === v)), ms);
  }

  /** What `find` answers once it answers something (polled every 50 ms); fails after `ms` with the frames seen. */
  async until<T>(find: () => T | undefined | false, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined && found !== false) return found;
      if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms; frames: ${JSON.stringify(this.frames)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Heartbeats seen so far: a stream that got `n` of them after an action would have had its event first. */
  heartbeats(): number {
    return this.frames.filter((f) => f.comment && !f.data).length;
  }

  close(): void {
    this.controller.abort();
  }
}
