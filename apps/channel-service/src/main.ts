import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './bootstrap';
import { ConfigValidationError, loadConfig } from './config/app-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigValidationError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);
  new Logger('Qhorus').log(
    {
      url: await app.getUrl(),
      role: config.QHORUS_ROLE,
      database: config.embeddedDatabase ? 'embedded (PGlite)' : 'postgres',
      queue: config.inProcessQueue ? 'in-process' : 'bullmq',
    },
    'Qhorus is listening',
  );
}

void main();
