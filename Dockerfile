# Marketplace Sandbox image: `docker run -p 3000:3000 IMAGE` serves the sandbox. Every CLI flag has
# an environment variable (see README "Flags"), e.g. -e SANDBOX_IN_MEMORY=true -e SANDBOX_SEED=7.
# The entrypoint is the CLI, so arguments are its command and flags:
#   docker run IMAGE --seed 7                                    (serve with flags)
#   docker run IMAGE replay scenarios/                           (the shipped scenario files)
#   docker run -v "$PWD/qa:/qa" IMAGE replay /qa --url http://sandbox:3000

# Build stage: compile TypeScript with the dev dependencies.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
# tsc (types, library entry) then the one-file CLI bundle (start-up time, see docs/hardening.md).
RUN npm run build && find dist -name '*.map' -delete

# Dependencies stage: production dependencies only, stripped of what never runs
# (source maps, type declarations, docs, the Swagger UI bundles /docs does not load).
FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts \
 && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
      -o -name '*.md' -o -name '*.markdown' -o -name 'CHANGELOG*' -o -name '.github' \) -prune -exec rm -rf {} + \
 && rm -rf node_modules/@types \
 && cd node_modules/swagger-ui-dist \
 && rm -f swagger-ui-es-bundle*.js swagger-ui.js index.html oauth2-redirect.* swagger-initializer.js log.*.txt

# Runtime stage: non-root, data on a volume, nothing but the app and its runtime dependencies.
FROM node:22-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    SANDBOX_DATA=/data/db.json
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json openapi.yaml ./
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY public ./public
RUN mkdir -p /data /app/.compile-cache && chown node:node /data /app/.compile-cache
USER node
# Node 22's on-disk compile cache, filled here by one run, for the modules Node loads (the CLI
# bundle, the few dependencies required at run time).
ENV NODE_COMPILE_CACHE=/app/.compile-cache
RUN node dist/bin.js --version
VOLUME ["/data"]
EXPOSE 3000
# The CLI flushes the store and exits on SIGTERM (docker stop); node is PID 1 and handles it itself.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/__sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The CLI is the entrypoint: `docker run IMAGE replay …` runs a subcommand, `docker run IMAGE` serves.
ENTRYPOINT ["node", "dist/bin.js"]
CMD []
