--[[
  dueHistogram: how many of one slot's pending messages fall due in each of the next ARGV[2] periods
  of ARGV[1] ms, counted from Redis's now; for the admin console's chart. Changes nothing.

  Why it is safe: read-only; ARGV[2] + 2 ZCOUNTs of O(log n) each, however many messages wait. The
  caller bounds ARGV[2] (the admin API: at most 1440).

  KEYS[1] due set  ZSET  member = message member (lib/memberIds), score = due time (epoch ms)

  ARGV[1] bucket width in ms (at least 1)
  ARGV[2] number of buckets (at least 1)

  Returns: { now, overdue, later, count1, count2, ... }
    overdue  pending messages due at or before now (not claimed yet)
    later    pending messages due after the last bucket, parked ones not counted (lib/parked: they fall due with their target)
    count1   pending messages due in (now, now + width], count2 in (now + width, now + 2 width], ...
]]
-- @include lib/redisNow
-- @include lib/parked
local width = tonumber(ARGV[1])
local buckets = tonumber(ARGV[2])
local reply = {
  now,
  redis.call('ZCOUNT', KEYS[1], '-inf', now),
  redis.call('ZCOUNT', KEYS[1], '(' .. (now + buckets * width), '(' .. PARKED_OFFSET)
}
for i = 0, buckets - 1 do
  reply[#reply + 1] = redis.call('ZCOUNT', KEYS[1], '(' .. (now + i * width), now + (i + 1) * width)
end
return reply
