/** The blob store contract for the database store (core/blob-stores/database.ts) on PGlite and Postgres. */
import { createDatabaseBlobStore } from '../../../core/blob-stores/database.ts';
import { DB_KINDS, openTestDatabase } from '../../helpers/db.ts';
import { testBlobStore } from '../suites/blob-store.ts';

for (const kind of DB_KINDS) {
  testBlobStore(`database (${kind})`, async () => {
    const t = await openTestDatabase(kind);
    return { store: createDatabaseBlobStore(t.db, () => 'http://127.0.0.1:3002'), stop: () => t.close() };
  });
}
