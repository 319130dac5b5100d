import { ESLint } from 'eslint';
import madge from 'madge';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The layer rule of DESIGN §1 (docs/architecture.md), as `npm run lint` enforces it: ESLint with
 * the project's eslint.config.mjs on deliberately wrong imports, through both the tsconfig path
 * aliases and relative paths. (An e2e file only because ESLint loads its .mjs config with a
 * dynamic import, which jest supports with --experimental-vm-modules, as `npm run test:e2e` runs.)
 */
const ROOT = join(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rule's table is CommonJS data
const { APP_FEATURES, layerOrder } = require('../eslint.layers.cjs') as { APP_FEATURES: Record<string, string[]>; layerOrder: (f: Record<string, string[]>) => string[] };
const APP_SRC = 'apps/channel-service/src';
const eslint = new ESLint({ cwd: ROOT });

/** The rule ids ESLint reports for `code` as if it were the file at `file` (relative to the root). */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const LAYER = expect.stringMatching(/^boundaries\/dependencies: DESIGN §1 layer rule/);
const NEST = expect.stringMatching(/^no-restricted-imports: .*@nestjs\/common.*only by its \*\.module\.ts/);

describe('the layer rule (eslint.config.mjs)', () => {
  it.each([
    ['qhorus-api imports the app', 'libs/qhorus-api/src/probe.ts', `import { Database } from '../../../apps/channel-service/src/database/database';`],
    ['qhorus-api imports another lib (alias)', 'libs/qhorus-api/src/probe.ts', `import { Summariser } from '@qhorus/blocks-summarisation';`],
    ['qhorus-api imports another lib (relative)', 'libs/qhorus-api/src/probe.ts', `import { Summariser } from '../../blocks-summarisation/src/summariser';`],
    ['blocks-summarisation imports blocks-channel-summary (alias)', 'libs/blocks-summarisation/src/probe.ts', `import { ChannelSummaryModule } from '@qhorus/blocks-channel-summary';`],
    ['blocks-summarisation imports blocks-channel-summary (relative)', 'libs/blocks-summarisation/src/probe.ts', `import { ChannelSummaryModule } from '../../blocks-channel-summary/src';`],
    ['blocks-channel-summary imports the app', 'libs/blocks-channel-summary/src/probe.ts', `import { AppConfig } from '../../../apps/channel-service/src/config/app-config';`],
    ["a lib's test imports the app", 'libs/blocks-channel-summary/test/probe.spec.ts', `import { AppConfig } from '../../../apps/channel-service/src/config/app-config';`],
    ['a lib imports the e2e helpers', 'libs/blocks-summarisation/src/probe.ts', `import { ApiClient } from '../../../test/support/http';`],
    ['a migration imports the app', 'migrations/probe.ts', `import { Database } from '../apps/channel-service/src/database/database';`],
    // Inside the service: feature folders import only down (eslint.layers.cjs).
    ['messages/ imports realtime/ (real time sits above messages)', 'apps/channel-service/src/messages/probe.ts', `import { RealtimeModule } from '../realtime/realtime.module';`],
    ['threads/ imports summary/ (summary jobs read threads)', 'apps/channel-service/src/threads/probe.ts', `import { SummaryRepository } from '../summary/summary.repository';`],
    ['message-store/ imports messages/', 'apps/channel-service/src/message-store/probe.ts', `import { MessagesService } from '../messages/messages.service';`],
    ['a foundation imports a feature (database/ imports channels/)', 'apps/channel-service/src/database/probe.ts', `import { ChannelsService } from '../channels/channels.service';`],
    ['rate-limit/ imports auth/', 'apps/channel-service/src/rate-limit/probe.ts', `import { AuthGuard } from '../auth/auth.guard';`],
    ['a feature imports the composition root', 'apps/channel-service/src/channels/probe.ts', `import { AppModule } from '../app.module';`],
    ['a feature imports migrations/', 'apps/channel-service/src/search/probe.ts', `import { MessageSearch1765830000000 } from '../../../../migrations/1765830000000-message-search';`],
    ['the app imports migrations/', 'apps/channel-service/src/database/probe.ts', `import { SummaryDueFlag1765300000000 } from '../../../../migrations/1765300000000-summary-due-flag';`],
    ["the app's connection module imports migrations/", 'apps/channel-service/src/database/connection.ts', `import { SummaryDueFlag1765300000000 } from '../../../../migrations/1765300000000-summary-due-flag';`],
  ])('%s: an error', async (_what, file, importLine) => {
    const name = importLine.match(/import \{ (\w+) \}/)![1];
    expect(await problems(file, `${importLine}\nexport const probe = ${name};\n`)).toEqual([LAYER]);
  });

  it("Nest imported in a lib's non-module file: an error", async () => {
    const code = `import { Injectable } from '@nestjs/common';\nexport const probe = Injectable;\n`;
    expect(await problems('libs/blocks-summarisation/src/probe.ts', code)).toEqual([NEST]);
    expect(await problems('libs/qhorus-api/src/probe.ts', code)).toEqual([NEST]);
  });

  it('the allowed imports: no error', async () => {
    const lib = [
      `import { MessageType } from '@qhorus/api';`,
      `import { Summariser } from '@qhorus/blocks-summarisation';`,
      `import { Message } from '../../qhorus-api/src/message';`,
      `export type Probe = [MessageType, Summariser, Message];`,
    ].join('\n');
    expect(await problems('libs/blocks-channel-summary/src/probe.ts', `${lib}\n`)).toEqual([]);
    expect(await problems('libs/blocks-summarisation/src/probe.ts', `import { MessageType } from '@qhorus/api';\nexport type Probe = MessageType;\n`)).toEqual([]);
    const nestModule = `import { Module } from '@nestjs/common';\n@Module({})\nexport class ProbeModule {}\n`;
    expect(await problems('libs/blocks-channel-summary/src/probe.module.ts', nestModule)).toEqual([]);
    const app = `import { ChannelSummaryModule } from '@qhorus/blocks-channel-summary';\nimport { poolConfig } from '../database/connection';\nexport const probe = [ChannelSummaryModule, poolConfig];\n`;
    expect(await problems('apps/channel-service/src/search/probe.ts', app)).toEqual([]);
    const migration = `import { estimateTokens } from '@qhorus/blocks-summarisation';\nimport { dataSourceOptions } from '../apps/channel-service/src/database/connection';\nexport const probe = [estimateTokens, dataSourceOptions];\n`;
    expect(await problems('migrations/probe.ts', migration)).toEqual([]);
    const e2e = `import { Database } from '../apps/channel-service/src/database/database';\nimport { MessageType } from '@qhorus/api';\nexport type Probe = [Database, MessageType];\n`;
    expect(await problems('test/probe.e2e-spec.ts', e2e)).toEqual([]);
  });

  it('the recommended rules run too (an unused import is an error)', async () => {
    expect(await problems('apps/channel-service/src/common/probe.ts', `import { join } from 'node:path';\nexport const probe = 1;\n`)).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-unused-vars: 'join' is defined but never used/),
    ]);
    expect(await problems('scripts/probe.js', `const { join } = require('node:path');\nmodule.exports = 1;\n`)).toEqual([
      expect.stringMatching(/^no-unused-vars: 'join' is assigned a value but never used/),
    ]);
  });

  it('a file-level import cycle fails the lint, a type-only one too (madge with .madgerc, as `npm run lint` runs it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qhorus-cycle-'));
    try {
      writeFileSync(join(dir, 'record.ts'), `import type { View } from './view';\nexport interface Record { view: View }\n`);
      writeFileSync(join(dir, 'view.ts'), `import { Record } from './record';\nexport type View = Record[];\n`);
      writeFileSync(join(dir, 'leaf.ts'), `export const leaf = 1;\n`);
      writeFileSync(join(dir, 'user.ts'), `import { leaf } from './leaf';\nexport const user = leaf;\n`);
      const config = JSON.parse(readFileSync(join(ROOT, '.madgerc'), 'utf8'));
      const graph = await madge(dir, { ...config, tsConfig: join(ROOT, config.tsConfig), baseDir: dir });
      expect(graph.circular()).toEqual([['record.ts', 'view.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('inside the service: feature folders import only down (eslint.layers.cjs)', () => {
    it('an import the table allows, and the composition root importing any feature: no error', async () => {
      const summary = `import { ThreadsRepository } from '../threads/threads.repository';\nimport { MessageReadsRepository } from '../message-store/message-reads.repository';\nimport { Summariser } from '@qhorus/blocks-summarisation';\nexport const probe = [ThreadsRepository, MessageReadsRepository];\nexport type P = Summariser;\n`;
      expect(await problems(`${APP_SRC}/summary/probe.ts`, summary)).toEqual([]);
      const root = `import { McpModule } from './mcp/mcp.module';\nimport { Database } from './database/database';\nexport const probe = [McpModule, Database];\n`;
      expect(await problems(`${APP_SRC}/probe.ts`, root)).toEqual([]);
    });

    it('every folder of the service is in the table, and the table has no cycle', () => {
      const folders = readdirSync(join(ROOT, APP_SRC), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
      expect(folders.sort()).toEqual(Object.keys(APP_FEATURES).sort());
      const order = layerOrder(APP_FEATURES);
      for (const [name, deps] of Object.entries(APP_FEATURES)) for (const dep of deps) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(name));
    });

    it('a table with a cycle is refused, naming it', () => {
      expect(() => layerOrder({ messages: ['threads'], threads: ['messages'] })).toThrow('APP_FEATURES has a cycle: messages → threads → messages');
      expect(() => layerOrder({ messages: ['realtime'] })).toThrow("unknown folder 'realtime'");
    });
  });
});
