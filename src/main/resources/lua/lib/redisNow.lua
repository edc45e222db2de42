-- Included by every script: `now` is Redis's clock in epoch milliseconds, one clock for all instances.
local redisTime = redis.call('TIME')
local now = tonumber(redisTime[1]) * 1000 + math.floor(tonumber(redisTime[2]) / 1000)
