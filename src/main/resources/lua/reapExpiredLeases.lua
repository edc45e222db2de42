--[[
  reapExpiredLeases: return messages whose lease deadline has passed to the due set, due now,
  with their attempt count incremented. Their claimer died or stalled; another instance (or
  the same one) will claim them again.

  Why it is safe: the message leaves the in-flight set in the same step, so the old claimer's late
  acknowledge, reschedule or dead letter (checked against its in-flight score, the lease deadline:
  lib/leases) no longer matches and changes nothing; a new claim gives it a later deadline.

  KEYS[1] in-flight set  ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] due set        ZSET  member = message member, score = due time (epoch ms)
  KEYS[3] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[4] lease claimers  ZSET  member = "<claimer id> <lease deadline> <claimed at> <latest due>", score = the
                                lease deadline (claim.lua): the entries whose deadline has passed are dropped here
                                too, so that a slot nobody claims from any more does not keep them

  ARGV[1] maximum number of leases to reap in this call

  Returns: the number of messages returned to the due set
]]
-- @include lib/redisNow
-- @include lib/leases
local expired = expiredLeases(KEYS[1], now, tonumber(ARGV[1]))
for _, member in ipairs(expired) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('HINCRBY', KEYS[3], member, 1)
  redis.call('ZADD', KEYS[2], now, member)
end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. now)
return #expired
