import { ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { isAdmin, Principal } from '../auth/principal';
import { assertConfiguredLimits } from '../common/configured-limit';
import { fieldProblem } from '../common/validation.pipe';
import { TimeoutError, withTimeout } from '../common/with-timeout';
import { RequestLimitsConfig } from '../config/slices/request-limits-config';
import { WebhookConfig } from '../config/slices/webhook-config';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { DeliveriesQuery } from './dto/deliveries.query';
import { CreatedWebhookResponse, WebhookAttemptResponse, WebhookResponse, WebhookTestResponse } from './dto/webhook.response';
import { checkTarget, WebhookTargetRefused } from './url-guard';
import { Webhook, WebhookAttemptRow } from './webhook.entity';
import { WebhookHostResolver } from './webhook-host-resolver';
import { WebhookWake } from './webhook-wake.listener';
import { HookViewer, WebhooksRepository } from './webhooks.repository';

/** Random bytes of a signing secret (Standard Webhooks: 24 to 64). */
const SECRET_BYTES = 32;
const SECRET_PREFIX = 'whsec_';

/** Hooks are managed by their owner; the admin sees and manages all; anyone else's is a 404. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly hooks: WebhooksRepository,
    private readonly wake: WebhookWake,
    private readonly config: WebhookConfig,
    private readonly limits: RequestLimitsConfig,
    private readonly dns: WebhookHostResolver,
  ) {}

  async create(dto: CreateWebhookDto, by: Principal): Promise<CreatedWebhookResponse> {
    try {
      await withTimeout(checkTarget(dto.url, this.config.allowList, (host) => this.dns.resolve(host)), this.config.timeoutMs, `resolving the host of '${dto.url}'`);
    } catch (e) {
      if (e instanceof WebhookTargetRefused) throw fieldProblem('url', e.message.replace(/^url /, ''));
      if (e instanceof TimeoutError) throw fieldProblem('url', `'${dto.url}' is refused: ${e.message}`);
      throw e;
    }
    const secret = SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
    const hook = await this.hooks.insert(
      {
        id: `wh_${randomUUID().replace(/-/g, '')}`,
        owner: by.name,
        url: dto.url,
        events: [...new Set(dto.events)],
        channels: dto.channels ? [...new Set(dto.channels)] : null,
        types: dto.types ? [...new Set(dto.types)] : null,
        secret,
      },
      isAdmin(by),
      this.config.maxPerAgent,
    );
    if (!hook) throw new ForbiddenException(`agent '${by.name}' has ${this.config.maxPerAgent} webhooks already (QHORUS_MAX_WEBHOOKS_PER_AGENT)`);
    this.wake.hookEnabled();
    return { ...webhookView(hook), secret };
  }

  async list(by: Principal): Promise<WebhookResponse[]> {
    return (await this.hooks.list(viewer(by))).map(webhookView);
  }

  async get(id: string, by: Principal): Promise<WebhookResponse> {
    return webhookView(await this.find(id, by));
  }

  async delete(id: string, by: Principal): Promise<WebhookResponse> {
    const deleted = await this.hooks.delete(id, viewer(by));
    if (!deleted) throw webhookNotFound(id);
    return webhookView(deleted);
  }

  async test(id: string, by: Principal): Promise<WebhookTestResponse> {
    const hook = await this.find(id, by);
    const eventId = `msg_${randomUUID().replace(/-/g, '')}`;
    if (!(await this.hooks.enqueueTest(hook.id, eventId))) throw new ConflictException(`webhook '${id}' is disabled: ${hook.disabledReason ?? 'deleted meanwhile'}`);
    this.wake.notify();
    return { eventId };
  }

  async deliveries(id: string, query: DeliveriesQuery, by: Principal): Promise<WebhookAttemptResponse[]> {
    assertConfiguredLimits(query, this.limits); // above the attempts kept: a 400 naming the maximum
    const hook = await this.find(id, by);
    return (await this.hooks.attempts(hook.id, query.limit ?? this.config.logKeep)).map(attemptView);
  }

  private async find(id: string, by: Principal): Promise<Webhook> {
    const hook = await this.hooks.find(id, viewer(by));
    if (!hook) throw webhookNotFound(id);
    return hook;
  }
}

const viewer = (by: Principal): HookViewer => ({ name: by.name, admin: isAdmin(by) });

function webhookNotFound(id: string): NotFoundException {
  return new NotFoundException(`Webhook '${id}' not found`);
}

function webhookView(h: Webhook): WebhookResponse {
  return {
    id: h.id,
    owner: h.owner,
    url: h.url,
    events: h.events,
    channels: h.channels,
    types: h.types,
    createdAt: h.createdAt,
    disabledAt: h.disabledAt,
    disabledReason: h.disabledReason,
  };
}

function attemptView(r: WebhookAttemptRow): WebhookAttemptResponse {
  return {
    eventId: r.event_id,
    type: r.type,
    attempt: r.attempt,
    status: r.status,
    durationMs: r.duration_ms,
    ...(r.error === null ? {} : { error: r.error }),
    at: r.at,
  };
}
