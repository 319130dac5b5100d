import { Injectable } from '@nestjs/common';
import { systemResolver } from './url-guard';

/**
 * The DNS the SSRF guard asks, at a hook's registration and again at every delivery: the
 * resolver the OS uses. One provider, so the whole service asks the same way (and a test can
 * stand in for DNS, e.g. a name that moves to a private address after registration).
 */
@Injectable()
export class WebhookHostResolver {
  /** Every address the host has, now. */
  resolve(hostname: string): Promise<{ address: string; family: number }[]> {
    return systemResolver(hostname);
  }
}
