--[[
  cancel: withdraw a pending message so that it is never delivered; or, when no message with the
  id is known yet, record the cancel so that the message is dropped when it arrives later
  (schedule.lua consults the cancelled set).

  Why it is safe: the decision and the change happen in one step. A pending message is withdrawn
  before any instance can claim it; a claimed message is reported and left alone (its publish
  may already be on the broker, so withdrawing it could not be exact). Every outcome but a
  withdrawal or a new record changes nothing, so repeating a cancel is harmless. The cancelled
  set stays bounded: each call trims at most 1000 records older than the cancel window. The id is
  looked up as its member (lib/memberIds), then as the id itself; a cancel is recorded as the member
  schedule.lua will look for.

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] payloads       HASH  field = message member, value = envelope bytes
  KEYS[3] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[4] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[5] cancelled set  ZSET  member = message member, score = cancel time (epoch ms)
  KEYS[6] delivered set  ZSET  member = message member, score = delivery time (epoch ms)
  KEYS[7] dead letters   HASH  field = message id, value = dead-letter record bytes
  KEYS[8] names          HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[9] failing since  HASH  field = message member, value = time of its first failed publish (recordFailure.lua)
  KEYS[10] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)
  KEYS[11] original due  HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua)

  ARGV[1] message id
  ARGV[2] cancel window in ms (0 keeps no cancel record)
  ARGV[3] dedupe window in ms
  ARGV[4] 1 to record a cancel for an id that is not known (it may still arrive), 0 not to
  ARGV[5] names cap: names the slot's names hash holds at most (lib/nameCodes; a recorded cancel may intern an id stem)
  ARGV[6] names cap: bytes of names the slot's names hash holds at most

  Returns:
     1 withdrawn: it was pending; it will not be delivered
     2 recorded: no such message yet; it is dropped if it arrives within the cancel window
     0 not known, and nothing recorded (ARGV[4] is 0, or the cancel window is 0)
    -1 in flight: claimed for delivery; nothing changed
    -2 delivered within the dedupe window; nothing changed
    -3 already cancelled within the cancel window; nothing changed
    -4 a dead letter (it will not be delivered unless replayed); nothing changed
]]
-- @include lib/redisNow
-- @include lib/memberIds
-- @include lib/groups
local id = ARGV[1]
local cancelWindow = tonumber(ARGV[2])
local dedupeWindow = tonumber(ARGV[3])
local codes = nameCodes(KEYS[8])
codes.capAt(tonumber(ARGV[5]), tonumber(ARGV[6]))
local ids = memberIds(codes)
local members = ids.lookupMembers(id)

-- the first of the id's members in a sorted set
local function memberIn(key)
  for _, member in ipairs(members) do
    if redis.call('ZSCORE', key, member) then return member end
  end
  return nil
end

local function recordCancel()
  redis.call('ZADD', KEYS[5], now, ids.toMember(id))
end

local function outcome()
  if memberIn(KEYS[3]) then return -1 end
  local pending = memberIn(KEYS[1])
  if pending then
    local group = groupOf(redis.call('HGET', KEYS[2], pending))
    if group then groupIndexRemove(KEYS[10], group, pending) end
    redis.call('ZREM', KEYS[1], pending)
    redis.call('HDEL', KEYS[2], pending)
    redis.call('HDEL', KEYS[4], pending)
    redis.call('HDEL', KEYS[9], pending)
    redis.call('HDEL', KEYS[11], pending)
    if cancelWindow > 0 then recordCancel() end
    return 1
  end
  local cancelledAt = ids.latestScore(KEYS[5], members)
  if cancelledAt and cancelledAt > now - cancelWindow then return -3 end
  local deliveredAt = ids.latestScore(KEYS[6], members)
  if deliveredAt and deliveredAt > now - dedupeWindow then return -2 end
  if redis.call('HEXISTS', KEYS[7], id) == 1 then return -4 end
  if ARGV[4] == '1' and cancelWindow > 0 then
    recordCancel()
    return 2
  end
  return 0
end

local result = outcome()
if cancelWindow > 0 then
  local expired = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now - cancelWindow, 'LIMIT', 0, 1000)
  if #expired > 0 then redis.call('ZREM', KEYS[5], unpack(expired)) end
end
return result
