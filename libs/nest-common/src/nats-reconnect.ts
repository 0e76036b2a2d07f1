/**
 * How every NATS connection of the platform behaves when the server goes away (a restart, a network
 * cut): it never gives up, and tries again every half second, so a process serves again within about
 * a second of NATS's return (apps/gateway/test/outage-nats.int-spec.ts measures it). The nats.js
 * default (2 s between tries, 10 tries) would leave a process dead after a 20 s outage.
 * `waitOnFirstConnect` stays off on purpose: a process that cannot reach NATS when it starts exits with
 * the error (a wrong NATS_URL shows at once), and its supervisor (`npm start`, Kubernetes) starts it again.
 */
export const NATS_RECONNECT = { maxReconnectAttempts: -1, reconnectTimeWait: 500 } as const;
