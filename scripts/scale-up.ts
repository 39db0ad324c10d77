// `npm run scale:up`: the scale-out shape on this machine, to try by hand or to point a benchmark
// at (docs/operations.md, "Two API servers on one machine"): a private PostgreSQL (unless
// DATABASE_URL names one), an S3-compatible store, the realtime hub, API_SERVERS API servers
// (default 2) and a round-robin balancer in front. Prints the addresses; Ctrl-C stops everything.
import { startPostgres } from './setup-lib.mjs';
import { createDatabase, startCluster } from './scale/cluster';

const pg = process.env.DATABASE_URL ? null : startPostgres(Number(process.env.CAIRN_SCALE_PG_PORT) || 54345);
if (!process.env.DATABASE_URL && !pg) throw new Error('No PostgreSQL: install the postgresql package or set DATABASE_URL.');
const database = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, drop: async () => undefined } : await createDatabase(pg!.url);

const cluster = await startCluster({
  databaseUrl: database.url,
  apiServers: Number(process.env.API_SERVERS) || 2,
  basePort: Number(process.env.SCALE_BASE_PORT) || undefined,
  inherit: process.env.QUIET !== '1',
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', SEED_DEMO: 'true', NODE_ENV: 'development', ...(process.env.WEB_DIR ? { WEB_DIR: process.env.WEB_DIR } : {}) },
});
console.log(`
Cairn scale-out shape is up:
  balancer     ${cluster.balancerUrl}   (round robin over the API servers)
  API servers  ${cluster.apis.map((a) => a.url).join('  ')}
  realtime hub ${cluster.hub.url}   (PUSHER_HOST of the API servers)
  S3 store     ${cluster.s3Endpoint}   (bucket "cairn")
  database     ${database.url}
  metrics      curl -H 'Authorization: Bearer ${cluster.metricsToken}' ${cluster.apis[0]!.url}/metrics
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  await database.drop().catch(() => undefined);
  pg?.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
