--[[
  acknowledge: forget messages the downstream broker has confirmed, and remember their ids
  for the dedupe window.

  Why it is safe: a message is deleted only if it still carries the caller's lease token. An
  instance that lost its lease (it stalled past the deadline and another instance re-claimed
  the message) cannot delete the message the other instance is now delivering.

  KEYS[1] in-flight set  ZSET  member = message id, score = lease deadline (epoch ms)
  KEYS[2] payloads       HASH  field = message id, value = envelope bytes
  KEYS[3] leases         HASH  field = message id, value = lease token of the claimer
  KEYS[4] attempts       HASH  field = message id, value = failed delivery attempts so far
  KEYS[5] delivered set  ZSET  member = message id, score = delivery time (epoch ms)

  ARGV[1] dedupe window in ms (0 keeps no delivered record)
  ARGV[2..] pairs: message id, lease token

  Returns: the number of messages acknowledged (pairs whose lease no longer matched are skipped)
]]
-- @include lib/redisNow
local window = tonumber(ARGV[1])
local acknowledged = 0
for i = 2, #ARGV, 2 do
  local id, token = ARGV[i], ARGV[i + 1]
  if redis.call('HGET', KEYS[3], id) == token then
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    redis.call('HDEL', KEYS[4], id)
    if window > 0 then redis.call('ZADD', KEYS[5], now, id) end
    acknowledged = acknowledged + 1
  end
end
if window > 0 then
  -- bounded trim so that one call never runs long after a quiet period
  local expired = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now - window, 'LIMIT', 0, 1000)
  if #expired > 0 then redis.call('ZREM', KEYS[5], unpack(expired)) end
end
return acknowledged
