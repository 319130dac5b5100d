import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { DeliveriesQuery } from './dto/deliveries.query';
import { CreatedWebhookResponse, WebhookAttemptResponse, WebhookResponse, WebhookTestResponse } from './dto/webhook.response';
import { WebhooksService } from './webhooks.service';

/** Webhooks (DESIGN §11): an agent manages its own, the admin every one; another agent's is a 404. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Subscribes the caller to events, delivered signed (Standard Webhooks) to `url`; the secret is shown this once. */
  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  create(@Body() dto: CreateWebhookDto, @CurrentPrincipal() by: Principal): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(dto, by);
  }

  /** The caller's webhooks (the admin: everyone's), oldest first. */
  @Get()
  @ApiOkResponse({ type: [WebhookResponse] })
  list(@CurrentPrincipal() by: Principal, @Query(NoQueryPipe) _query: NoQuery): Promise<WebhookResponse[]> {
    return this.webhooks.list(by);
  }

  /** One webhook; a disabled one says when and why. */
  @Get(':id')
  @ApiOkResponse({ type: WebhookResponse })
  get(@Param('id') id: string, @CurrentPrincipal() by: Principal, @Query(NoQueryPipe) _query: NoQuery): Promise<WebhookResponse> {
    return this.webhooks.get(id, by);
  }

  /** Deletes a webhook and every delivery it still had pending; answers the hook as it was. */
  @Delete(':id')
  @ApiOkResponse({ type: WebhookResponse })
  delete(@Param('id') id: string, @CurrentPrincipal() by: Principal): Promise<WebhookResponse> {
    return this.webhooks.delete(id, by);
  }

  /** Queues a `webhook.test` event for the hook, delivered (and retried) like any other. */
  @Post(':id/test')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: WebhookTestResponse })
  test(@Param('id') id: string, @CurrentPrincipal() by: Principal): Promise<WebhookTestResponse> {
    return this.webhooks.test(id, by);
  }

  /** The newest delivery attempts (QHORUS_WEBHOOK_LOG_KEEP kept per hook), newest first. */
  @Get(':id/deliveries')
  @ApiOkResponse({ type: [WebhookAttemptResponse] })
  deliveries(@Param('id') id: string, @Query() query: DeliveriesQuery, @CurrentPrincipal() by: Principal): Promise<WebhookAttemptResponse[]> {
    return this.webhooks.deliveries(id, query, by);
  }
}
