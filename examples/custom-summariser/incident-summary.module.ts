import { Module } from '@nestjs/common';
import { CONTENT_SUMMARISER, SUMMARISER_STRATEGIES } from '@qhorus/blocks-channel-summary';
import { IncidentSummariser } from './incident-summariser';

/** The strategy name channels pick with `"summariser": "incident"`. */
export const INCIDENT_STRATEGY = 'incident';

/**
 * Registers IncidentSummariser with ordinary Nest DI:
 * - as CONTENT_SUMMARISER: the service's default summariser (the `heuristic` name, channels that
 *   name none, `tiered`'s middle tier, and thread summaries). Drop this provider to leave the
 *   default alone and let channels opt in by name;
 * - in SUMMARISER_STRATEGIES: the named strategy `incident`.
 * Both must be exported; pass the module to `createApp(config, { imports: [IncidentSummaryModule] })`.
 */
@Module({
  providers: [
    IncidentSummariser,
    { provide: CONTENT_SUMMARISER, useExisting: IncidentSummariser },
    {
      provide: SUMMARISER_STRATEGIES,
      useFactory: (incident: IncidentSummariser) => ({ [INCIDENT_STRATEGY]: incident }),
      inject: [IncidentSummariser],
    },
  ],
  exports: [IncidentSummariser, CONTENT_SUMMARISER, SUMMARISER_STRATEGIES],
})
export class IncidentSummaryModule {}
