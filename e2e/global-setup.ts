import { migratedCluster } from './helpers';

/**
 * Once per e2e run, before the first file: the migrated PGlite cluster every test server starts
 * from (decision 0325). The e2e suites use no other shared set-up (the PGlite dump of
 * tests/helpers/global-setup.ts is for the server suites' in-process databases).
 */
export default async function setup() {
  await migratedCluster();
}
