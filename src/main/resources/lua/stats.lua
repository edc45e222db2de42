--[[
  stats: how many messages of one slot are in each state, and when the next one falls due.
  Changes nothing.

  Why it is safe: read-only; every count is O(log n) (ZCARD, HLEN, ZCOUNT), so it is cheap even
  with millions of messages waiting.

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[3] delivered set  ZSET  member = message member, score = delivery time (epoch ms)
  KEYS[4] cancelled set  ZSET  member = message member, score = cancel time (epoch ms)
  KEYS[5] dead letters   HASH  field = message id, value = dead-letter record bytes

  ARGV[1] dedupe window in ms (only deliveries within it are counted)
  ARGV[2] cancel window in ms (only cancels within it are counted)

  Returns: { now, pending, inFlight, delivered, cancelled, dead, nextDue, parked }
    pending  messages waiting in the due set, parked ones included
    nextDue  due time of the earliest pending message that is not parked (epoch ms), or -1 if none
    parked   pending messages parked with their target (lib/parked)
]]
-- @include lib/redisNow
-- @include lib/parked
local first = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. PARKED_OFFSET, 'WITHSCORES', 'LIMIT', 0, 1)
local nextDue = -1
if first[2] then nextDue = tonumber(first[2]) end
return {
  now,
  redis.call('ZCARD', KEYS[1]),
  redis.call('ZCARD', KEYS[2]),
  redis.call('ZCOUNT', KEYS[3], '(' .. (now - tonumber(ARGV[1])), '+inf'),
  redis.call('ZCOUNT', KEYS[4], '(' .. (now - tonumber(ARGV[2])), '+inf'),
  redis.call('HLEN', KEYS[5]),
  nextDue,
  redis.call('ZCOUNT', KEYS[1], PARKED_OFFSET, '+inf')
}
