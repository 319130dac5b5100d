import Anthropic from '@anthropic-ai/sdk';
import { QhorusClient } from '@qhorus/client';
import { PlannerOutcome, runPlanner } from './planner';
import { runWorker } from './worker';

/**
 * The model the agents think with unless EXAMPLE_MODEL names another: one the Anthropic API serves
 * today (not in the installed SDK's own deprecation table, which gives `claude-sonnet-4-5` an
 * end-of-life of 2026-11-30).
 */
export const DEFAULT_EXAMPLE_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_GOAL = 'decide whether release 42 can ship on Friday';

/** What the example needs, read from the environment before anything is created. */
export interface ExampleSettings {
  baseUrl: string;
  adminToken: string;
  apiKey: string;
  anthropicBaseUrl?: string;
  model: string;
  channel?: string;
  goal: string;
}

/** A missing setting, named; nothing was created. */
export class ExampleSettingsError extends Error {}

/** Reads the settings; throws ExampleSettingsError naming every missing one (before any agent or channel exists). */
export function exampleSettings(env: Record<string, string | undefined>): ExampleSettings {
  const apiKey = (env.ANTHROPIC_API_KEY || env.QHORUS_LLM_API_KEY)?.trim();
  const adminToken = env.QHORUS_ADMIN_TOKEN?.trim();
  const missing = [
    ...(apiKey ? [] : ['an Anthropic API key: set ANTHROPIC_API_KEY (or QHORUS_LLM_API_KEY)']),
    ...(adminToken ? [] : ['the admin token that registers the two agents: set QHORUS_ADMIN_TOKEN (e.g. $(cat .data/admin-token))']),
  ];
  if (missing.length > 0) throw new ExampleSettingsError(`Nothing was created. Missing ${missing.join('; and ')}.`);
  return {
    baseUrl: env.QHORUS_URL ?? 'http://localhost:3000',
    adminToken: adminToken!,
    apiKey: apiKey!,
    anthropicBaseUrl: env.ANTHROPIC_BASE_URL || undefined,
    model: env.EXAMPLE_MODEL || DEFAULT_EXAMPLE_MODEL,
    channel: env.EXAMPLE_CHANNEL || undefined,
    goal: env.EXAMPLE_GOAL || DEFAULT_GOAL,
  };
}

export interface ExampleRun {
  outcome: PlannerOutcome;
  channel: string;
  /** The agents it registered, revoked again when it ended. */
  agents: string[];
  /** Whether the channel was deleted afterwards (a service without `DELETE /channels/{name}` keeps it). */
  channelDeleted: boolean;
}

/**
 * Registers a planner and a worker, lets them coordinate in a new channel, then cleans up:
 * revokes both agents and deletes the channel where the service can. Clean-up runs whether the
 * agents succeeded or failed.
 */
export async function runExample(settings: ExampleSettings, signal?: AbortSignal): Promise<ExampleRun> {
  const { baseUrl, model, goal } = settings;
  const admin = new QhorusClient({ baseUrl, token: settings.adminToken });
  const anthropic = new Anthropic({ apiKey: settings.apiKey, baseURL: settings.anthropicBaseUrl, maxRetries: 0 });
  const suffix = Date.now().toString(36);
  const channel = settings.channel ?? `plan-${suffix}`;
  const agents: string[] = [];
  let channelCreated = false;
  // One agent failing stops the other, so clean-up does not wait for a reply that will not come.
  const stop = new AbortController();
  const agentSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  try {
    const [planner, worker] = await Promise.all([`planner-${suffix}`, `worker-${suffix}`].map((n) => admin.registerAgent(n)));
    agents.push(planner.name, worker.name);
    const asPlanner = new QhorusClient({ baseUrl, token: planner.token });
    const asWorker = new QhorusClient({ baseUrl, token: worker.token });
    await asPlanner.createChannel({ name: channel, description: goal });
    channelCreated = true;
    const [outcome] = await Promise.all([
      runPlanner({ client: asPlanner, anthropic, model, channel, worker: worker.name, goal, signal: agentSignal }),
      runWorker({ client: asWorker, anthropic, model, channel, name: worker.name, signal: agentSignal }),
    ]).catch((error: unknown) => {
      stop.abort();
      throw error;
    });
    const channelDeleted = await deleteChannel(baseUrl, settings.adminToken, channel);
    channelCreated = false;
    return { outcome, channel, agents: [...agents], channelDeleted };
  } finally {
    if (channelCreated) await deleteChannel(baseUrl, settings.adminToken, channel).catch(() => false);
    for (const name of agents) await admin.revokeAgent(name).catch(() => undefined);
  }
}

/** `DELETE /channels/{name}` where the service has it (DESIGN §10); false when it does not. */
async function deleteChannel(baseUrl: string, adminToken: string, channel: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/api/v1/channels/${encodeURIComponent(channel)}`, { method: 'DELETE', headers: { authorization: `Bearer ${adminToken}` } });
  await res.body?.cancel();
  return res.ok;
}
