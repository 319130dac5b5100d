import { DataSource } from 'typeorm';
// The one import of the app a migration may make: the connection settings, for the TypeORM CLI.
import { dataSourceOptions } from '../apps/channel-service/src/database/connection';

/** For the TypeORM CLI: `npx typeorm migration:run -d dist/migrations/data-source.js` (`npm run migration:run`). */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/qhorus', 1));
