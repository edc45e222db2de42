-- Included by the scripts that add dead letters: keeps the store of one slot within its bounds.
-- trimDeadLetters(recordsKey, indexKey, maxCount, maxAgeMs, now) removes at most 100 records older than
-- maxAgeMs and at most 100 of the oldest beyond maxCount, so one call never runs long.
local function trimDeadLetters(recordsKey, indexKey, maxCount, maxAgeMs, now)
  local function remove(ids)
    if #ids > 0 then
      redis.call('ZREM', indexKey, unpack(ids))
      redis.call('HDEL', recordsKey, unpack(ids))
    end
  end
  remove(redis.call('ZRANGEBYSCORE', indexKey, '-inf', now - maxAgeMs, 'LIMIT', 0, 100))
  local excess = redis.call('ZCARD', indexKey) - maxCount
  if excess > 0 then remove(redis.call('ZRANGE', indexKey, 0, math.min(excess, 100) - 1)) end
end
