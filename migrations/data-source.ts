import { DataSource, DataSourceOptions } from 'typeorm';
import { InitialSchema1764400000000 } from './1764400000000-initial-schema';

/** Every migration, in order. Listed explicitly so the app, the CLI and jest load the same set. */
export const MIGRATIONS = [InitialSchema1764400000000];

/** The one place that describes the database connection, shared by the CLI and the app. */
export function dataSourceOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'qhorus_migrations',
    entities: [],
    extra: { max: poolSize, connectionTimeoutMillis: 5_000 },
  };
}

/** For the TypeORM CLI: `npx typeorm migration:run -d dist/migrations/data-source.js`. */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/qhorus', 1));
