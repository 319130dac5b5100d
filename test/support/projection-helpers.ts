import { validateProjectedMessages } from '../../apps/channel-service/src/projection/shape-validator';
import { ApiClient } from './http';

/**
 * Every projection a test sees goes through here: it must pass the shape validator and stay
 * within its budget, whatever the test then checks.
 */
export function expectValidProjection(projection: any): any {
  const problems = validateProjectedMessages(projection.messages, projection.format);
  if (problems.length > 0) throw new Error(`invalid ${projection.format} projection: ${JSON.stringify(problems)}`);
  if (!(projection.projectedTokens <= projection.maxTokens)) {
    throw new Error(`projection over budget: ${projection.projectedTokens} > ${projection.maxTokens}`);
  }
  return projection;
}

/** GET /channels/{name}/context, checked by `expectValidProjection`. */
export async function getContext(client: ApiClient, channel: string, params: Record<string, string | number> = {}): Promise<any> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await client.get(`/api/v1/channels/${channel}/context${query ? `?${query}` : ''}`);
  if (res.status !== 200) throw new Error(`context failed: ${res.status} ${JSON.stringify(res.body)}`);
  return expectValidProjection(res.body);
}

/** The summary block: the first text of the first message, whatever the format. */
export function summaryBlockOf(projection: any): string {
  switch (projection.format) {
    case 'anthropic':
      return projection.messages.messages[0].content[0].text;
    case 'openai':
      return projection.messages[0].content;
    default:
      return projection.messages.split('\n\n')[0];
  }
}
