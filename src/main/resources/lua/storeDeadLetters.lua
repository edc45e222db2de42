--[[
  storeDeadLetters: keep messages refused at ingest (never scheduled) in the dead-letter store, so
  they can be listed and replayed like messages that failed delivery.

  Why it is safe: the store is bounded: each call trims at most 100 of the oldest records beyond the
  count, age or byte limit (lib/trimDeadLetters). A record with the same message id replaces the older one.

  KEYS[1] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[2] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)
  KEYS[3] dead-letter bytes  STRING  sum of the lengths of the slot's dead-letter records

  ARGV[1] maximum records kept in this slot's store
  ARGV[2] maximum age of a record in ms
  ARGV[3] maximum bytes of records kept in this slot's store
  ARGV[4..] pairs: message id, dead-letter record bytes

  Returns: the number of records stored
]]
-- @include lib/redisNow
-- @include lib/trimDeadLetters
local stored = 0
for i = 4, #ARGV, 2 do
  putDeadLetter(KEYS[1], KEYS[2], KEYS[3], ARGV[i], ARGV[i + 1], now)
  stored = stored + 1
end
trimDeadLetters(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), now)
return stored
