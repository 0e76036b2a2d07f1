# syntax=docker/dockerfile:1
# Tinkerdesk images: one Dockerfile for every app, chosen with the build argument APP (gateway,
# identity, commerce, terminals, conversion). The build context is the repository root:
#   docker build --build-arg APP=gateway    -t tinkerdesk/gateway:latest .
#   docker build --build-arg APP=identity   -t tinkerdesk/identity:latest .
#   docker build --build-arg APP=commerce   -t tinkerdesk/commerce:latest .
#   docker build --build-arg APP=terminals  -t tinkerdesk/terminals:latest .
#   docker build --build-arg APP=conversion -t tinkerdesk/conversion:latest .
# The conversion image serves two processes (same image, another command):
#   listener: node apps/conversion/dist/main.js   (NATS; accepts and reports jobs)
#   worker:   node apps/conversion/dist/worker.js (BullMQ; scale by replicas)
# Extra target `migrate` (docker-compose's one-shot migrate service): runs the migrations of
# identity, commerce, terminals and conversion in that order, then exits.
#   docker build --target migrate -t tinkerdesk/migrate:latest .
# Stages 1-3 do not depend on APP, so one build fills the cache for every image. BuildKit (the
# default builder) builds only the stages the chosen APP needs: LibreOffice and Chromium are
# installed for the conversion image only.

ARG NODE_IMAGE=node:24-bookworm-slim
ARG APP=gateway

# 1. manifests: only package.json files, the lockfile and .npmrc. The npm install layer below is
#    then reused until one of them changes, not on every source edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -mindepth 1 ! -type d ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -mindepth 1 -depth -type d -empty -delete

# 2. build: all dependencies (dev included), then `npm run build` (tsc -b for apps/* and libs/*,
#    vite for apps/web). `npm install`, not `npm ci`: ci stops when the lockfile lacks another
#    platform's optional binaries; install still follows the lockfile.
FROM ${NODE_IMAGE} AS build
ENV NX_DAEMON=false \
    SCARF_ANALYTICS=false
WORKDIR /app
COPY --from=manifests /src/ ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# 3. prod: drop dev dependencies and reduce every workspace to package.json + dist (+ node_modules,
#    and bin: the conversion workers' UNO bridge and sandboxed soffice).
#    Workspace links in node_modules/@tinkerdesk/* keep pointing at libs/<lib> and apps/<app>.
FROM build AS prod
RUN npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/.cache node_modules/.vite \
 && for d in apps/*/ libs/*/; do \
      [ -d "$d" ] || continue; \
      find "$d" -mindepth 1 -maxdepth 1 ! -name dist ! -name bin ! -name package.json ! -name node_modules -exec rm -rf {} +; \
    done

# 4. os: the runtime system without an app. tini is PID 1: it forwards SIGTERM to node and reaps
#    child processes. Kubernetes manifests pass the command as `args` so this entrypoint stays.
FROM ${NODE_IMAGE} AS os
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tini \
 && rm -rf /var/lib/apt/lists/*

# 4b. os-office: the conversion workers' programs. LibreOffice (headless) with its UNO bridge
#     (python3-uno: the worker keeps soffice warm) and bubblewrap (soffice runs in its sandbox: no
#     network, no view of the worker's files; the container needs user namespaces, see README),
#     poppler (PDF pages) and Chromium (web pages);
#     HOME=/tmp so LibreOffice, Chromium and fontconfig write their profiles and caches to /tmp
#     (the root filesystem is read-only in Kubernetes).
FROM os AS os-office
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libreoffice-core-nogui \
      libreoffice-writer-nogui \
      libreoffice-calc-nogui \
      libreoffice-impress-nogui \
      python3-uno \
      bubblewrap \
      poppler-utils \
      chromium \
      fonts-liberation2 \
      fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
ENV WORKER_CONCURRENCY=2 \
    CHROMIUM_PATH=/usr/bin/chromium \
    HOME=/tmp

# 5. The system each app runs on: one line per app.
FROM os AS os-gateway
FROM os AS os-identity
FROM os AS os-commerce
FROM os AS os-terminals
FROM os-office AS os-conversion

# 6. base: the chosen app's system with the production dependencies and the built libraries.
FROM os-${APP} AS base
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod /app/package.json ./
COPY --from=prod /app/node_modules ./node_modules
COPY --from=prod /app/libs ./libs
# The image's `node` user (uid/gid 1000), numeric so Kubernetes can verify runAsNonRoot.
# Code stays owned by root: the app cannot rewrite itself.
USER 1000:1000
ENTRYPOINT ["/usr/bin/tini", "--"]

# 7. migrate: all four services' migrations (each creates the database if missing and its schema).
FROM base AS migrate
COPY --from=prod /app/apps/identity ./apps/identity
COPY --from=prod /app/apps/commerce ./apps/commerce
COPY --from=prod /app/apps/terminals ./apps/terminals
COPY --from=prod /app/apps/conversion ./apps/conversion
CMD ["sh", "-c", "node apps/identity/dist/migrate.js && node apps/commerce/dist/migrate.js && node apps/terminals/dist/migrate.js && node apps/conversion/dist/migrate.js"]

# 8. One stage per app: its code, port, health check and command.
#    The gateway serves the built web app; its probes are /v1/health/live and /v1/health/ready.
FROM base AS gateway
ENV PORT=8080 \
    HOST=0.0.0.0 \
    WEB_DIST=/app/apps/web/dist
COPY --from=prod /app/apps/gateway ./apps/gateway
COPY --from=prod /app/apps/web/dist ./apps/web/dist
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/v1/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/gateway/dist/main.js"]

#    The services: HEALTH_PORT serves GET /live and GET /ready.
FROM base AS service
ENV HEALTH_PORT=8081
EXPOSE 8081
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||8081)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

FROM service AS identity
COPY --from=prod /app/apps/identity ./apps/identity
CMD ["node", "apps/identity/dist/main.js"]

FROM service AS commerce
COPY --from=prod /app/apps/commerce ./apps/commerce
CMD ["node", "apps/commerce/dist/main.js"]

FROM service AS terminals
COPY --from=prod /app/apps/terminals ./apps/terminals
CMD ["node", "apps/terminals/dist/main.js"]

FROM service AS conversion
COPY --from=prod /app/apps/conversion ./apps/conversion
CMD ["node", "apps/conversion/dist/main.js"]

# 9. runtime (the default target, last): the stage of the app named by APP.
FROM ${APP} AS runtime
