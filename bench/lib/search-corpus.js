'use strict';
// A search corpus seeded straight into Postgres with generate_series (1,000,000 messages in well
// under a minute): channels, their summary slots, and messages whose words follow a skewed
// distribution over a fixed vocabulary, with a rare word and a phrase planted at known rates.
// Used by bench/search.js and by the migration-wait measurement in docs/benchmarks.md.

/** Words of the corpus, most frequent first (a draw picks index floor(n · random()²)). */
const VOCABULARY = `deploy the build is green failing test retry queue worker agent channel summary review merge
  branch schema migration index latency budget token model prompt context thread reply handoff status done
  decline failure request response error timeout cache redis postgres api route client server config
  release version patch fix bug issue ticket plan design doc note owner target sender topic event metric
  trace log alert page incident rollback canary shard replica backup restore snapshot disk memory cpu
  network socket proxy gateway auth login permission role member admin secret key rotate expire session
  lock mutex race deadlock order batch stream replay cursor offset limit page sort filter search rank
  snippet score vector embed chunk split merge diff commit push pull tag label milestone sprint goal
  risk cost estimate deadline blocked waiting ready started finished approved rejected pending queued`
  .split(/\s+/)
  .filter(Boolean);

/** Planted in one message in RARE_EVERY: a word no other message has. */
const RARE_WORD = 'zanzibarite';
const RARE_EVERY = 50_000;
/** Planted in one message in PHRASE_EVERY, words in this order (each word also occurs on its own). */
const PHRASE = 'retry policy';
const PHRASE_EVERY = 200;
/** Words per message drawn from the vocabulary. */
const WORDS_PER_MESSAGE = 12;
/** One channel in PRIVATE_EVERY has members (only MEMBER and the admin may read it). */
const PRIVATE_EVERY = 10;
const MEMBER = 'bench-member';
/** One message in EVENT_EVERY is an EVENT (hidden from search unless includeEvents). */
const EVENT_EVERY = 20;
const SENDERS = 50;
const TOPICS = ['general', 'deploy', 'review', 'incident', 'planning'];

/**
 * Planted words go to messages picked by a multiplicative hash of g (Knuth's constant, mod the prime 2^31 − 1),
 * not by g mod N, which would put them all in the channels g mod CHANNELS shares with N.
 */
const SPREAD = '2654435761::bigint';
const SPREAD_MOD = '2147483647';

const channelName = (prefix, i) => `${prefix}-${String(i).padStart(4, '0')}`;

/**
 * Seeds `channels` channels named `<prefix>-0000…` and `messages` messages spread evenly over
 * them (message g goes to channel g mod channels, seq in order), in one statement each.
 * The content of every message is drawn per row (the subquery refers to the row, so Postgres
 * does not evaluate it once).
 */
async function seedSearchCorpus(client, { prefix = 'search', channels, messages, createdBy = 'bench' }) {
  const perChannel = Math.ceil(messages / channels);
  await client.query(
    `INSERT INTO channels (name, summary_threshold, summariser, created_by, members, last_seq)
     SELECT $1 || '-' || lpad(i::text, 4, '0'), 100000, 'heuristic', $2,
            CASE WHEN i % $3 = $3 - 1 THEN ARRAY[$4::text] END, 0
     FROM generate_series(0, $5 - 1) i`,
    [prefix, createdBy, PRIVATE_EVERY, MEMBER, channels],
  );
  await client.query(`INSERT INTO channel_summaries (channel_id) SELECT id FROM channels WHERE name LIKE $1 || '-%'`, [prefix]);
  await client.query(
    `WITH ch AS (SELECT array_agg(id ORDER BY name) AS ids FROM channels WHERE name LIKE $1 || '-%')
     INSERT INTO messages (channel_id, seq, type, sender, content, topic, created_at)
     SELECT ch.ids[1 + g % $2], 1 + g / $2,
            CASE WHEN g % $3 = $3 - 1 THEN 'EVENT' ELSE 'STATUS' END,
            'agent-' || (g % $4),
            (SELECT string_agg(($5::text[])[1 + floor(power(random(), 2) * cardinality($5::text[]))::int], ' ')
               FROM generate_series(1, $6 + 0 * g))
              || CASE WHEN (g * ${SPREAD}) % ${SPREAD_MOD} % $7 = 0 THEN ' ' || $8 ELSE '' END
              || CASE WHEN (g * ${SPREAD}) % ${SPREAD_MOD} % $9 = 1 THEN ' ' || $10 ELSE '' END,
            ($11::text[])[1 + g % cardinality($11::text[])],
            now() - make_interval(secs => $12 - g)
     FROM ch, generate_series(0, $12 - 1) g`,
    [prefix, channels, EVENT_EVERY, SENDERS, VOCABULARY, WORDS_PER_MESSAGE, PHRASE_EVERY, PHRASE, RARE_EVERY, RARE_WORD, TOPICS, messages],
  );
  await client.query(
    `UPDATE channels c SET last_seq = m.last FROM (SELECT channel_id, max(seq) AS last FROM messages GROUP BY channel_id) m
     WHERE m.channel_id = c.id AND c.name LIKE $1 || '-%'`,
    [prefix],
  );
  return { perChannel, channelNames: Array.from({ length: channels }, (_, i) => channelName(prefix, i)) };
}

module.exports = {
  seedSearchCorpus,
  channelName,
  VOCABULARY,
  RARE_WORD,
  PHRASE,
  MEMBER,
  PRIVATE_EVERY,
};
