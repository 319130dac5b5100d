// Tracing first, when configured: its instrumentations patch http, pg and ioredis as they are
// first loaded, which the imports below do (so they are required inside main, not above).
import { startTracing } from './telemetry/tracing';
startTracing(process.env);

import 'reflect-metadata';
import { ConsoleLogger, Logger } from '@nestjs/common';
import type { AppConfig } from './config/app-config';

async function main(): Promise<void> {
  const { ConfigValidationError, loadConfig } = await import('./config/app-config');
  const { StartupError } = await import('./config/startup-error');
  const { createApp } = await import('./bootstrap');
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigValidationError) startFailed(e.message, 'Config');
    throw e;
  }
  const app = await createApp(config).catch((e: unknown) => {
    if (e instanceof StartupError) startFailed(e.message, 'Qhorus');
    throw e;
  });
  try {
    await app.listen(config.PORT, config.HOST);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why = code === 'EADDRINUSE' ? 'the address is in use' : (e as Error).message;
    startFailed(`cannot listen on ${config.HOST}:${config.PORT} (HOST, PORT): ${why}`, 'Qhorus');
  }
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

/** A start-up failure as one JSON line (pino is not up yet, or never came up), then exit 1. */
function startFailed(message: string, context: string): never {
  new ConsoleLogger({ json: true, colors: false }).error(message, context);
  process.exit(1);
}

void main();
