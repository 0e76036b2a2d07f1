// The echo responder of bench/read-hops.mjs, in a process of its own (as a service is): answers every
// message on SUBJECT with its own bytes. COALESCE=1 flushes its replies once per turn of the event loop,
// as the services do (coalesceNatsWrites); otherwise the client's own flush on the next microtask.
import { connect } from '@nats-io/transport-node';
import { coalesceNatsWrites } from '../../libs/nest-common/dist/nats-writes.js';

const nc = await connect({ servers: process.env.NATS_URL, noAsyncTraces: true });
if (process.env.COALESCE === '1') coalesceNatsWrites(nc);
nc.subscribe(process.env.SUBJECT, { callback: (_error, msg) => msg.respond(msg.data) });
await nc.flush();
process.send?.('ready');
process.on('disconnect', () => void nc.close());
