--[[
  changeDueTime: give a pending message a new due time (reschedule). Its envelope (body, headers,
  target) and attempt count stay as they are.

  Why it is safe: only a message still in the due set is changed, in one step, so it cannot be
  claimed half-way; a claimed message is reported and left alone. The new due time is computed
  from Redis's clock, like schedule.lua's, and the maximum delay applies as it does there. The id is
  looked up as its member (lib/memberIds, without writing), then as the id itself.

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[3] names          HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[4] payloads       HASH  field = message member, value = envelope bytes (read for its group)
  KEYS[5] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)
  KEYS[6] original due   HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua):
                               dropped, as the new due time is the one the message is due at

  ARGV[1] message id
  ARGV[2] mode: "delay" (ARGV[3] ms from now) or "at" (ARGV[3] is the due time, epoch ms)
  ARGV[3] value in ms
  ARGV[4] maximum delay in ms (a due time further than this from now is refused)

  Returns: the new due time (epoch ms, >= 0), or
    -1 in flight: claimed for delivery; nothing changed
    -2 not pending (unknown, delivered, cancelled or dead); nothing changed
    -3 the new due time lies beyond the maximum delay; nothing changed
]]
-- @include lib/memberIds
-- @include lib/groups
local id = ARGV[1]
local ids = memberIds(nameCodes(KEYS[3]))
local members = ids.lookupMembers(id)
local pending
for _, member in ipairs(members) do
  if redis.call('ZSCORE', KEYS[2], member) then return -1 end
  if not pending and redis.call('ZSCORE', KEYS[1], member) then pending = member end
end
if not pending then return -2 end
-- @include lib/redisNow
local due
if ARGV[2] == 'delay' then due = now + tonumber(ARGV[3]) else due = tonumber(ARGV[3]) end
if due - now > tonumber(ARGV[4]) then return -3 end
redis.call('ZADD', KEYS[1], 'XX', due, pending)
local group = groupOf(redis.call('HGET', KEYS[4], pending))
if group then groupIndexMove(KEYS[5], group, pending, due) end
redis.call('HDEL', KEYS[6], pending)
return due
