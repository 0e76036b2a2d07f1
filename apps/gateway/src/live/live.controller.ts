import { Controller, Get, Inject, type BeforeApplicationShutdown, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiErrors } from '../http/api-docs.js';
import { lastEventSeq, LiveStreams } from './live-streams.js';

/**
 * The signed-in user's live events (docs/api.md "Live events"): Server-Sent Events, each
 * `id: <sequence>`, `event: <type>`, `data: {"type","ids"}`; `Last-Event-ID` resumes after a break.
 */
@ApiTags('live')
@ApiBearerAuth()
@Controller('v1')
export class LiveController implements BeforeApplicationShutdown {
  constructor(@Inject(LiveStreams) private readonly streams: LiveStreams) {}

  /** Open streams end with `event: end` (their clients reconnect to another replica) and give their slots back. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.streams.closeAll();
  }

  @Get('events/stream')
  @UseGuards(BearerGuard)
  @ApiOperation({
    summary:
      'The signed-in user’s live events (text/event-stream): id, event (type), data {type, ids}; heartbeats as comment lines; send Last-Event-ID to get what was missed (kept an hour)',
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event received: the stream resumes after it' })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiErrors('RATE_LIMITED', 'UNAVAILABLE')
  async stream(@CurrentSession() session: AuthenticatedSession, @Req() req: Request, @Res() res: Response): Promise<void> {
    // A refusal (429 past the limit, 503 without Redis or JetStream) comes before anything is written: the usual envelope.
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    const begin = () => {
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store, no-transform');
      res.setHeader('Connection', 'keep-alive');
      // Proxies (nginx) must not buffer the stream.
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      req.socket.setTimeout(0);
    };
    await this.streams.stream(session, res, { after: lastEventSeq(req.header('last-event-id')), closed, begin });
  }
}
