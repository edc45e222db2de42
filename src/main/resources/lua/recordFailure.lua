--[[
  recordFailure: count a failed publish of a claimed message, and remember when its publishes started
  failing, so that the bridge can retry by time (bridge.retry.max-age-ms) rather than by count. Changes
  nothing else: the message stays in flight under the caller's lease, and the caller then either gives it
  back with a backoff (reschedule.lua, not counted again) or dead-letters it (deadLetter.lua).

  Why it is safe: only the holder of the lease can record a failure (a stale instance changes nothing).
  The first failure's time is written once (HSETNX) and deleted with the message (acknowledge, deadLetter,
  cancel), so the age it gives is how long this message has been failing, on Redis's clock.

  KEYS[1] in-flight set  ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[3] failing since  HASH  field = message member, value = time of its first failed publish (epoch ms)

  ARGV[1] message member (as claim.lua returned it, used as given)
  ARGV[2] lease token: the lease deadline the claim returned (claim.lua)

  Returns: { attempts, failingSince, now } after counting this failure (attempts includes it), or { -1 } if
  the lease did not match (nothing changed)
]]
-- @include lib/leases
local member, token = ARGV[1], ARGV[2]
if not holdsLease(KEYS[1], member, token) then return { -1 } end
-- @include lib/redisNow
local attempts = redis.call('HINCRBY', KEYS[2], member, 1)
redis.call('HSETNX', KEYS[3], member, now)
return { attempts, tonumber(redis.call('HGET', KEYS[3], member)), now }
