import { describe, expect, it } from '@jest/globals';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('gives complete events only, whatever the chunks', () => {
    const parser = new SseParser();
    const text =
      'retry: 2000\n: hello\n\nid: 7\nevent: share.received\ndata: {"type":"share.received"}\n\nid: 8\nevent: order.paid\ndata: {"a":1}\n\n';
    const events = [...text].flatMap((c) => parser.push(c));
    expect(events).toEqual([
      { id: '7', event: 'share.received', data: '{"type":"share.received"}' },
      { id: '8', event: 'order.paid', data: '{"a":1}' },
    ]);
    expect(parser.lastEventId).toBe('8');
    expect(parser.retryMs).toBe(2000);
  });

  it('ignores heartbeats, joins data lines, handles CRLF and CR line ends and a missing space', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\n: keep-alive\r\n\r\n')).toEqual([]);
    expect(parser.push('data:one\r\ndata: two\r')).toEqual([]);
    expect(parser.push('\n\r')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '', event: 'message', data: 'one\ntwo' }]);
  });

  it('keeps the last id for events that name none, and waits for the blank line', () => {
    const parser = new SseParser();
    expect(parser.push('id: 3\ndata: a\n\ndata: b\n')).toEqual([{ id: '3', event: 'message', data: 'a' }]);
    expect(parser.push('\n')).toEqual([{ id: '3', event: 'message', data: 'b' }]);
  });
});
