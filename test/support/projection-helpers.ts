import { validateProjection } from '../../apps/channel-service/src/projection/shape-validator';
import { ApiClient } from './http';

/**
 * Every projection a test sees goes through here: it must pass the shape validator and stay
 * within its budget, whatever the test then checks.
 */
export function expectValidProjection(projection: any): any {
  const problems = validateProjection(projection);
  // One type per field whatever the format (DESIGN §5): `text` for text, `messages` otherwise.
  if (projection.format === 'text' ? 'messages' in projection : 'text' in projection) throw new Error(`${projection.format} projection carries the other format's field`);
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
    case 'openai':
      return projection.messages[0].content[0].text;
    default:
      return projection.text.split('\n\n')[0];
  }
}
