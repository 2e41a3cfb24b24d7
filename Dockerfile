# Interlingua gateway image: dependencies installed from the lock file in a build stage,
# a slim runtime stage running as the unprivileged `node` user.

# --- build: production dependencies from the lock file ----------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# tsx is a runtime dependency: the gateway runs its TypeScript sources directly (type-checked in CI).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime ------------------------------------------------------------------------------------
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json ./
COPY --chown=node:node src ./src
COPY --chown=node:node routes ./routes
COPY --chown=node:node providers ./providers
COPY --chown=node:node tool-formats ./tool-formats
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The server closes gracefully on SIGTERM (in-flight streams get a grace period).
STOPSIGNAL SIGTERM
# Mount a config at /config/gateway.yaml and set GATEWAY_CONFIG, or pass --config.
CMD ["node", "--import", "tsx", "src/server.ts"]
