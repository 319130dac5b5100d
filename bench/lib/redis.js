'use strict';
const IORedis = require('ioredis');
const { REDIS_URL } = require('../config');

const SCAN_COUNT = 500;

/** Deletes every key under `prefix:` (the bench's own BullMQ keys; nothing else is touched). */
async function deleteRedisPrefix(prefix) {
  const redis = new IORedis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', SCAN_COUNT);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

module.exports = { deleteRedisPrefix };
