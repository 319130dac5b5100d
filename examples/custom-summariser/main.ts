import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from '../../apps/channel-service/src/bootstrap';
import { loadConfig } from '../../apps/channel-service/src/config/app-config';
import { IncidentSummaryModule } from './incident-summary.module';

/**
 * The channel service with the incident summariser registered: the same service and the same
 * environment knobs as `npm start`, plus one module.
 *
 *   npm run build && node dist/examples/custom-summariser/main.js
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env); // exits below with a message naming every bad knob
  const app = await createApp(config, { imports: [IncidentSummaryModule] });
  await app.listen(config.PORT, config.HOST);
  new Logger('IncidentExample').log({ url: await app.getUrl() }, 'Qhorus with the incident summariser is listening');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
