--[[
  inspect: everything Redis knows about one message id, read in one step for the admin API.
  Changes nothing.

  Why it is safe: read-only, and a single snapshot, so the answer never mixes two states of a
  message that moved between them (claimed, delivered, cancelled) while it was being read. The id
  is looked up as its member (lib/memberIds, without writing), then as the id itself: the message
  is the one of the two with a payload.

  KEYS[1] due set            ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] in-flight set      ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[3] payloads           HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[4] attempts           HASH  field = message member, value = failed delivery attempts so far
  KEYS[5] delivered set      ZSET  member = message member, score = delivery time (epoch ms)
  KEYS[6] cancelled set      ZSET  member = message member, score = cancel time (epoch ms)
  KEYS[7] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[8] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)
  KEYS[9] names              HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)

  ARGV[1] message id
  ARGV[2] dedupe window in ms (older delivered records are ignored)
  ARGV[3] cancel window in ms (older cancel records are ignored)

  Returns: { now, due, leaseUntil, attempts, envelope, deliveredAt, cancelledAt, deadAt, deadRecord, size }
    with nil for what does not exist; times are epoch ms on Redis's clock (deliveredAt and cancelledAt
    the latest of the id's records); envelope in the wire form (expanded, as claim.lua returns it),
    size the bytes it takes in Redis (stored form)
]]
-- @include lib/redisNow
-- @include lib/expandNames
-- @include lib/memberIds
local id = ARGV[1]
local codes = nameCodes(KEYS[9])
local ids = memberIds(codes)
local members = ids.lookupMembers(id)
local live, stored = members[1], false
for _, member in ipairs(members) do
  stored = redis.call('HGET', KEYS[3], member)
  if stored then
    live = member
    break
  end
end

local function score(key, member)
  local value = redis.call('ZSCORE', key, member)
  if value then return tonumber(value) end
  return false
end

local function within(time, window)
  if time and time > now - tonumber(window) then return time end
  return false
end

return {
  now,
  score(KEYS[1], live),
  score(KEYS[2], live),
  tonumber(redis.call('HGET', KEYS[4], live) or 0),
  stored and namesExpander(codes).expand(stored),
  within(ids.latestScore(KEYS[5], members), ARGV[2]),
  within(ids.latestScore(KEYS[6], members), ARGV[3]),
  score(KEYS[8], id),
  redis.call('HGET', KEYS[7], id),
  stored and #stored
}
