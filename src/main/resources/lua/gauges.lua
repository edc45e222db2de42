--[[
  gauges: what one slot holds for the cluster-wide gauges of /observe/metrics (pending, in flight, overdue,
  the oldest due time, dead letters, due within the next minute / ten minutes / hour). Changes nothing.

  Why it is safe: read-only; every count is O(log n) (ZCARD, ZCOUNT, HLEN), so a scrape costs one cheap call
  per slot even with millions of messages waiting.

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[3] dead letters   HASH  field = message id, value = dead-letter record bytes

  ARGV[1] overdue threshold in ms: a pending message due more than this long ago counts as overdue
  ARGV[2] first due-soon window in ms (1 min)
  ARGV[3] second due-soon window in ms (10 min)
  ARGV[4] third due-soon window in ms (1 h)

  Returns: { now, pending, inFlight, overdue, oldestDue, dead, dueSoonMinute, dueSoonTenMinutes, dueSoonHour }
    pending    messages waiting in the due set, parked ones included (lib/parked)
    oldestDue  due time of the earliest pending message that is not parked (epoch ms), or -1 if none
    dueSoon*   pending messages not yet due that fall due within ARGV[2], [3], [4]: due time in (now, now + window]
]]
-- @include lib/redisNow
-- @include lib/parked
local first = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. PARKED_OFFSET, 'WITHSCORES', 'LIMIT', 0, 1)
local oldestDue = -1
if first[2] then oldestDue = tonumber(first[2]) end
return {
  now,
  redis.call('ZCARD', KEYS[1]),
  redis.call('ZCARD', KEYS[2]),
  redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[1]))),
  oldestDue,
  redis.call('HLEN', KEYS[3]),
  redis.call('ZCOUNT', KEYS[1], '(' .. now, now + tonumber(ARGV[2])),
  redis.call('ZCOUNT', KEYS[1], '(' .. now, now + tonumber(ARGV[3])),
  redis.call('ZCOUNT', KEYS[1], '(' .. now, now + tonumber(ARGV[4]))
}
