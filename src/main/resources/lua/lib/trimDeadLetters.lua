-- Included by the scripts that add or remove dead letters: keeps the store of one slot within its bounds, and the
-- slot's byte count (a STRING: the sum of the lengths of the records in the store) in step with its records.
--   putDeadLetter(recordsKey, indexKey, bytesKey, id, record, now)   adds or replaces a record
--   removeDeadLetters(recordsKey, indexKey, bytesKey, ids)           removes records (ids present or not)
--   trimDeadLetters(recordsKey, indexKey, bytesKey, maxCount, maxAgeMs, maxBytes, now) removes at most 100 records
--     older than maxAgeMs, at most 100 of the oldest beyond maxCount, and at most 100 of the oldest while the records
--     hold more than maxBytes, so one call never runs long.
-- Records stored before the byte count existed are not in it; the count never goes below 0 on their removal.
local function addDeadLetterBytes(bytesKey, delta)
  if delta == 0 then return end
  if redis.call('INCRBY', bytesKey, delta) < 0 then redis.call('SET', bytesKey, 0) end
end

local function putDeadLetter(recordsKey, indexKey, bytesKey, id, record, now)
  local before = redis.call('HSTRLEN', recordsKey, id)
  redis.call('HSET', recordsKey, id, record)
  redis.call('ZADD', indexKey, now, id)
  addDeadLetterBytes(bytesKey, #record - before)
end

local function removeDeadLetters(recordsKey, indexKey, bytesKey, ids)
  if #ids == 0 then return end
  local freed = 0
  for _, id in ipairs(ids) do freed = freed + redis.call('HSTRLEN', recordsKey, id) end
  redis.call('ZREM', indexKey, unpack(ids))
  redis.call('HDEL', recordsKey, unpack(ids))
  addDeadLetterBytes(bytesKey, -freed)
end

local function trimDeadLetters(recordsKey, indexKey, bytesKey, maxCount, maxAgeMs, maxBytes, now)
  removeDeadLetters(recordsKey, indexKey, bytesKey, redis.call('ZRANGEBYSCORE', indexKey, '-inf', now - maxAgeMs, 'LIMIT', 0, 100))
  local excess = redis.call('ZCARD', indexKey) - maxCount
  if excess > 0 then removeDeadLetters(recordsKey, indexKey, bytesKey, redis.call('ZRANGE', indexKey, 0, math.min(excess, 100) - 1)) end
  for _ = 1, 100 do
    if tonumber(redis.call('GET', bytesKey) or '0') <= maxBytes then break end
    local oldest = redis.call('ZRANGE', indexKey, 0, 0)
    if #oldest == 0 then
      redis.call('SET', bytesKey, 0) -- nothing left to count
      break
    end
    removeDeadLetters(recordsKey, indexKey, bytesKey, oldest)
  end
end
