--[[
  inspect: everything Redis knows about one message id, read in one step for the admin API.
  Changes nothing.

  Why it is safe: read-only, and a single snapshot, so the answer never mixes two states of a
  message that moved between them (claimed, delivered, cancelled) while it was being read.

  KEYS[1] due set            ZSET  member = message id, score = due time (epoch ms)
  KEYS[2] in-flight set      ZSET  member = message id, score = lease deadline (epoch ms)
  KEYS[3] payloads           HASH  field = message id, value = envelope in its stored form (lib/internNames)
  KEYS[4] attempts           HASH  field = message id, value = failed delivery attempts so far
  KEYS[5] delivered set      ZSET  member = message id, score = delivery time (epoch ms)
  KEYS[6] cancelled set      ZSET  member = message id, score = cancel time (epoch ms)
  KEYS[7] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[8] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)
  KEYS[9] names              HASH  the slot's interned targets and origin stems (lib/expandNames)

  ARGV[1] message id
  ARGV[2] dedupe window in ms (older delivered records are ignored)
  ARGV[3] cancel window in ms (older cancel records are ignored)

  Returns: { now, due, leaseUntil, attempts, envelope, deliveredAt, cancelledAt, deadAt, deadRecord, size }
    with nil for what does not exist; times are epoch ms on Redis's clock; envelope in the wire form
    (expanded, as claim.lua returns it), size the bytes it takes in Redis (stored form)
]]
-- @include lib/redisNow
-- @include lib/expandNames
local id = ARGV[1]

local function score(key)
  local value = redis.call('ZSCORE', key, id)
  if value then return tonumber(value) end
  return false
end

local function within(time, window)
  if time and time > now - tonumber(window) then return time end
  return false
end

local stored = redis.call('HGET', KEYS[3], id)
return {
  now,
  score(KEYS[1]),
  score(KEYS[2]),
  tonumber(redis.call('HGET', KEYS[4], id) or 0),
  stored and namesExpander(nameCodes(KEYS[9])).expand(stored),
  within(score(KEYS[5]), ARGV[2]),
  within(score(KEYS[6]), ARGV[3]),
  score(KEYS[8]),
  redis.call('HGET', KEYS[7], id),
  stored and #stored
}
