--[[
  takeTokens: take up to a number of tokens from a target pattern's token bucket, shared by every bridge instance, so
  that together they publish to the pattern's targets at most its rate.

  Why it is safe: the bucket is read, refilled and taken from inside one script, on Redis's clock (one clock for all
  instances), so two instances cannot both spend the same tokens. The bucket holds at most a tenth of a second's tokens
  (at least one): a pattern quiet for a while gets a short burst, not a second's worth at once. The bucket key carries a
  hash tag of its own (store/Keys), so on a Redis Cluster this script touches one hash slot.

  KEYS[1] token bucket  HASH  field tokens = tokens left (a decimal number), at = when they were counted (epoch ms, Redis clock)

  ARGV[1] rate: tokens added per second (> 0)
  ARGV[2] tokens asked (>= 0): the messages of one claimed batch for the pattern

  The bucket expires once it would be full again anyway (refilled), so a pattern no longer used leaves no key.

  Returns: { granted, now }
    granted  how many of the asked tokens were taken (0 to asked): that many messages may be published now
    now      Redis's current time (epoch ms): the rest are due again as the bucket refills, one every 1000 / rate ms
]]
-- @include lib/redisNow
local rate, asked = tonumber(ARGV[1]), tonumber(ARGV[2])
local capacity = math.max(1, rate / 10)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(bucket[1]), tonumber(bucket[2])
if not tokens or not at then
  tokens, at = capacity, now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local granted = math.min(asked, math.floor(tokens))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * 1000 / rate) + 1000)
return { granted, now }
