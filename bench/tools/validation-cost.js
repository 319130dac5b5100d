#!/usr/bin/env node
'use strict';
// What the ValidationPipe costs per request body, in process (the compiled app's pipe, every DTO
// loaded as in the service): a batch of 100 messages and a single post, with class-validator's
// metadata lookup cached (common/validation-metadata-cache.ts, what the service runs) and without
// (the storage's own methods), alternating, medians of ROUNDS.
//   node bench/tools/validation-cost.js      (after `npx nest build`)
require('reflect-metadata');
const { join } = require('node:path');
const { getMetadataStorage } = require('class-validator');
const { DIST } = require('../lib/dist');
const { median } = require('../lib/stats');

const app = (path) => require(join(DIST, 'apps/channel-service/src', path));
app('app.module.js'); // every DTO class registered, as in the running service
const { apiValidationPipe } = app('common/validation.pipe.js');
const { PostBatchDto } = app('messages/dto/post-batch.dto.js');
const { PostMessageDto } = app('messages/dto/post-message.dto.js');

const ROUNDS = Number(process.env.VALIDATION_ROUNDS ?? 9);
const pipe = apiValidationPipe(); // installs the cache
const storage = getMetadataStorage();
const cached = { lookUp: storage.getTargetValidationMetadatas, group: storage.groupByPropertyName };
const useCache = (on) => {
  if (on) Object.assign(storage, { getTargetValidationMetadatas: cached.lookUp, groupByPropertyName: cached.group });
  else {
    delete storage.getTargetValidationMetadatas; // the prototype's methods again
    delete storage.groupByPropertyName;
  }
};
const batchBody = JSON.stringify({ messages: Array.from({ length: 100 }, (_, i) => ({ type: 'STATUS', content: `build step ${i} passed`, topic: 'build' })) });
const single = { type: 'STATUS', content: 'build step passed', topic: 'build' };

async function timeUs(times, once) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < times; i++) await once();
  return Number(process.hrtime.bigint() - started) / 1e3 / times;
}

(async () => {
  const runs = { true: { batch: [], single: [] }, false: { batch: [], single: [] } };
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const on of [true, false]) {
      useCache(on);
      const batch = await timeUs(300, () => pipe.transform(JSON.parse(batchBody), { type: 'body', metatype: PostBatchDto }));
      const one = await timeUs(10_000, () => pipe.transform({ ...single }, { type: 'body', metatype: PostMessageDto }));
      if (round === 0) continue; // warm-up
      runs[on].batch.push(batch);
      runs[on].single.push(one);
    }
  }
  useCache(true);
  for (const on of [true, false]) {
    console.log(`${on ? 'cached  ' : 'uncached'}: batch of 100 ${median(runs[on].batch).toFixed(0)} µs, single post ${median(runs[on].single).toFixed(1)} µs (medians of ${ROUNDS})`);
  }
})();
