--[[
  storeDeadLetters: keep messages refused at ingest (never scheduled) in the dead-letter store, so
  they can be listed and replayed like messages that failed delivery.

  Why it is safe: the store is bounded: each call trims at most 100 of the oldest records beyond the
  count or age limit. A record with the same message id replaces the older one.

  KEYS[1] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[2] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)

  ARGV[1] maximum records kept in this slot's store
  ARGV[2] maximum age of a record in ms
  ARGV[3..] pairs: message id, dead-letter record bytes

  Returns: the number of records stored
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stored = 0
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[2], now, ARGV[i])
  stored = stored + 1
end

local function trim(ids)
  if #ids > 0 then
    redis.call('ZREM', KEYS[2], unpack(ids))
    redis.call('HDEL', KEYS[1], unpack(ids))
  end
end
trim(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]), 'LIMIT', 0, 100))
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[1])
if excess > 0 then trim(redis.call('ZRANGE', KEYS[2], 0, math.min(excess, 100) - 1)) end
return stored
