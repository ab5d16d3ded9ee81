# syntax=docker/dockerfile:1
#
# One image recipe for every Node process of the product, chosen by a build arg:
#
#   docker build --build-arg SERVICE=services/auth -t aict/auth .
#   docker build --build-arg SERVICE=gateway       -t aict/gateway .   # also builds the front-ends
#
# SERVICE is a workspace folder (services/<name> or gateway). Stages:
#   manifests  the package.json files only, so `npm ci` stays cached until a manifest changes
#   build      all dependencies, shared packages + the selected workspace (+ front-ends for the gateway)
#   runtime    production dependencies of the selected workspace only, its dist/ and the shared
#              packages' dist/; non-root; HEALTHCHECK on /healthz
#
# NODE_IMAGE: Node 24 LTS, the runtime the product is built and tested on (.node-version); its bundled npm
# accepts package-lock.json (`npm ci`).
ARG NODE_IMAGE=node:24.21.0-slim

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
# Keep the root manifest, the lockfile, .npmrc and every workspace's package.json (npm ci checks
# the lockfile against all workspaces); drop everything else.
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -mindepth 1 -type d -empty -delete

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /src/ ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund
COPY . .
# Declared after `npm ci`, so the dependency layer is shared by every service's build.
ARG SERVICE
RUN if [ -z "$SERVICE" ] || [ ! -f "$SERVICE/package.json" ]; then \
      echo "Build arg SERVICE must name a workspace folder (services/auth ... or gateway); got '$SERVICE'" >&2; \
      exit 1; \
    fi
RUN npm run build -w @aict/contracts -w @aict/service-kit -w "$SERVICE"
RUN if [ "$SERVICE" = "gateway" ]; then npm run build --if-present -w frontends; fi
# Gather exactly what the runtime needs: compiled output, nothing else.
RUN mkdir /out \
 && cp -r --parents packages/contracts/dist packages/service-kit/dist "$SERVICE/dist" /out/ \
 && if [ "$SERVICE" = "gateway" ]; then cp -r --parents frontends/*/dist /out/; fi

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
# --max-semi-space-size=2: a young generation of at most 2 MB per semi-space keeps each process
# some 15-25 MB smaller (idle and under load) for roughly 15-20 % more CPU per request spent in
# scavenges (scripts/lib/stack.mjs, PRODUCT_NODE_FLAGS, runs the local stack the same way).
# MALLOC_*: two glibc arenas, allocations of 64 KB and more mapped on their own and returned at
# once, free heap top given back past 128 KB: the generation service under a 10-minute load
# ended at 163 MB instead of 199 MB (scripts/lib/stack.mjs, PRODUCT_MALLOC_ENV).
ENV NODE_ENV=production \
    NODE_OPTIONS="--enable-source-maps --max-semi-space-size=2" \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=65536 \
    MALLOC_TRIM_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=manifests /src/ ./
# Production dependencies of the selected workspace (and of the workspaces it links) only.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --workspace "$SERVICE" --include-workspace-root=false --no-audit --no-fund
# Files stay owned by root: the process can read its code but not change it.
COPY --from=build /out/ ./
WORKDIR /app/${SERVICE}
# `node` of the base image, by number: Kubernetes' runAsNonRoot can verify a numeric user.
USER 1000:1000
# Liveness only (/readyz checks the dependencies). Node's own fetch: no curl in the image.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]
