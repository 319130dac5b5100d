import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { QhorusMetrics } from './qhorus-metrics';

/** Prometheus text exposition format. */
const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

@ApiTags('operations')
@ApiBearerAuth()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: QhorusMetrics) {}

  /** Prometheus scrape endpoint; needs a token like the API (Prometheus: `authorization: {credentials: …}`). */
  @Get()
  @Header('content-type', PROMETHEUS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Metrics in the Prometheus text format', schema: { type: 'string' } })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
