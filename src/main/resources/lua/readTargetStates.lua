--[[
  readTargetStates: every target that has a parking state. Changes nothing.

  Why it is safe: read-only; the hash holds one field per parked, paused or returning target.

  KEYS[1] target states  HASH  field = target, value = "<kind> <since> <next probe at> <probe backoff ms>"

  ARGV none

  Returns: { now, target1, state1, target2, state2, ... }
    now  Redis's current time (epoch ms)
]]
-- @include lib/redisNow
local result = { now }
for _, field in ipairs(redis.call('HGETALL', KEYS[1])) do result[#result + 1] = field end
return result
