--[[
  changeDueTime: give a pending message a new due time (reschedule). Its envelope (body, headers,
  target) and attempt count stay as they are.

  Why it is safe: only a message still in the due set is changed, in one step, so it cannot be
  claimed half-way; a claimed message is reported and left alone. The new due time is computed
  from Redis's clock, like schedule.lua's, and the maximum delay applies as it does there.

  KEYS[1] due set        ZSET  member = message id, score = due time (epoch ms)
  KEYS[2] in-flight set  ZSET  member = message id, score = lease deadline (epoch ms)

  ARGV[1] message id
  ARGV[2] mode: "delay" (ARGV[3] ms from now) or "at" (ARGV[3] is the due time, epoch ms)
  ARGV[3] value in ms
  ARGV[4] maximum delay in ms (a due time further than this from now is refused)

  Returns: the new due time (epoch ms, >= 0), or
    -1 in flight: claimed for delivery; nothing changed
    -2 not pending (unknown, delivered, cancelled or dead); nothing changed
    -3 the new due time lies beyond the maximum delay; nothing changed
]]
local id = ARGV[1]
if redis.call('ZSCORE', KEYS[2], id) then return -1 end
if not redis.call('ZSCORE', KEYS[1], id) then return -2 end
-- @include lib/redisNow
local due
if ARGV[2] == 'delay' then due = now + tonumber(ARGV[3]) else due = tonumber(ARGV[3]) end
if due - now > tonumber(ARGV[4]) then return -3 end
redis.call('ZADD', KEYS[1], 'XX', due, id)
return due
