# The Cairn server image of the reference deployment (docker-compose.yml, docs/operations.md):
# the API server, the realtime hub and the web app are the same image with different settings.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --logLevel warn
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
EXPOSE 8080
# Graceful shutdown on SIGTERM (WebSockets closed with 4200, requests finished): docker stop sends it.
CMD ["node", "--import", "tsx", "server/main.ts"]
