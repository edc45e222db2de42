--[[
  reschedule: give a claimed message back to the due set, to be tried again later
  (a failed publish with backoff, already counted by recordFailure.lua; a dead letter the channel
  refused) or at once (released at shutdown, unpublished).

  Why it is safe: only the holder of the lease can give the message back (lib/leases), so a stale
  instance cannot reschedule a message another instance has re-claimed.

  KEYS[1] in-flight set  ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] due set        ZSET  member = message member, score = due time (epoch ms)
  KEYS[3] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[4] original due   HASH  field = message member, value = its due time before the bridge first moved it: what
                               claim.lua returns as its original due time, for x-delay-due-at and lateness

  ARGV[1] message member (as claim.lua returned it, used as given)
  ARGV[2] lease token: the lease deadline the claim returned (claim.lua)
  ARGV[3] delay from now in ms before the next attempt
  ARGV[4] 1 to count this as a failed attempt, 0 not to
  ARGV[5] the message's original due time (epoch ms), kept unless one is kept already

  Returns: the attempt count after this call, or -1 if the lease did not match (nothing changed)
]]
-- @include lib/leases
local member, token = ARGV[1], ARGV[2]
if not holdsLease(KEYS[1], member, token) then return -1 end
-- @include lib/redisNow
redis.call('ZREM', KEYS[1], member)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), member)
redis.call('HSETNX', KEYS[4], member, ARGV[5])
if ARGV[4] == '1' then return redis.call('HINCRBY', KEYS[3], member, 1) end
return tonumber(redis.call('HGET', KEYS[3], member) or 0)
