import { Command } from 'commander';
import { CliProblem, clientFor, printJson } from '../cli-context';
import { QhorusClient } from '@qhorus/client';

/** A route from a later contract (DESIGN §6): callable once the client is regenerated against a service that has it. */
function routeOrExplain(method: string, path: string, what: string) {
  const id = QhorusClient.operationFor(method, path);
  if (!id) throw new CliProblem(`${what} needs ${method} ${path}, which this client was not generated with (npm run client:generate against a service that has it)`);
  return id;
}

export function agentsCommand(): Command {
  const agents = new Command('agents').description('register and list agents (registering needs the admin token)');
  agents
    .command('add')
    .argument('<name>', 'the agent name')
    .description('register an agent; prints its token, shown this once')
    .action(async (name: string, _opts, command: Command) => {
      const { client, json } = clientFor(command);
      const agent = await client.registerAgent(name);
      if (json) return printJson(agent);
      process.stdout.write(`${agent.name}\t${agent.token}\n`);
    });
  agents
    .command('ls')
    .description('list agents')
    .action(async (_opts, command: Command) => {
      const { client, json } = clientFor(command);
      const list = await client.listAgents();
      if (json) return printJson(list);
      for (const a of list) process.stdout.write(`${a.name}\t${new Date(a.createdAt).toISOString()}\n`);
    });
  agents
    .command('revoke')
    .argument('<name>')
    .description('revoke an agent (admin): its token stops working at once')
    .action(async (name: string, _opts, command: Command) => {
      const { client, json } = clientFor(command);
      const id = routeOrExplain('DELETE', '/api/v1/agents/{name}', 'agents revoke');
      const answer = await client.call(id, { path: { name } } as never);
      if (json) return printJson(answer ?? { name, revoked: true });
      process.stdout.write(`revoked ${name}\n`);
    });
  agents
    .command('rotate')
    .argument('<name>')
    .description("rotate an agent's token (admin); prints the new one, shown this once")
    .action(async (name: string, _opts, command: Command) => {
      const { client, json } = clientFor(command);
      const id = routeOrExplain('POST', '/api/v1/agents/{name}/token', 'agents rotate');
      const answer = (await client.call(id, { path: { name } } as never)) as { name: string; token: string };
      if (json) return printJson(answer);
      process.stdout.write(`${answer.name}\t${answer.token}\n`);
    });
  return agents;
}

export { routeOrExplain };
