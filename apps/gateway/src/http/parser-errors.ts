import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorCode, type ErrorEnvelope, statusOf } from '@tinkerdesk/contracts';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/** The answer to an error Node's HTTP parser meets before the request reaches the app. */
export function parserErrorAnswer(code: string | undefined): { status: number; body: ErrorEnvelope } {
  const answer = (error: ErrorCode, detail: string) => ({ status: statusOf(error), body: { success: false as const, error, detail } });
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return answer('HEADERS_TOO_LARGE', 'the request headers are larger than this server accepts');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return answer('REQUEST_TIMEOUT', 'the request did not arrive in time');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return answer('PAYLOAD_TOO_LARGE', 'the chunk extensions are larger than this server accepts');
    default:
      return answer('BAD_REQUEST', `the request is not valid HTTP${code ? ` (${code})` : ''}`);
  }
}

/**
 * Answers the HTTP parser's errors (bad request line, headers too large, ...) in the error envelope
 * like every other error, instead of Node's bare plain-text status line.
 */
export function answerParserErrorsInEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, body } = parserErrorAnswer(error.code);
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(json)}\r\n` +
        'connection: close\r\n\r\n' +
        json,
    );
  });
}
