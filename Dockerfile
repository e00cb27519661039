# One image for every gitforge app; the command picks the app (see docker-compose.yml).
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ git ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages ./packages
COPY apps ./apps
RUN npm ci --no-audit --no-fund \
 && npx turbo run build --output-logs=errors-only \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 1000 --create-home --home-dir /home/gitforge gitforge \
 && mkdir -p /data && chown gitforge /data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
ENV NODE_ENV=production GITFORGE_DATA_DIR=/data
USER gitforge
VOLUME /data
EXPOSE 3000
ENTRYPOINT ["tini", "--", "node"]
# The embedded layout; distributed deployments pass apps/<app>/dist/main.js.
CMD ["apps/embedded/dist/main.js"]
