import { seededDataDir } from './helpers';

/**
 * Once per e2e run, before the first file: the server bundle and the migrated, seeded data dir
 * every test server starts from (decisions 0325, 0379). The e2e suites use no other shared set-up
 * (the PGlite dump of tests/helpers/global-setup.ts is for the server suites' in-process databases).
 */
export default async function setup() {
  await seededDataDir();
}
