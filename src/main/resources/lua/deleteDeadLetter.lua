--[[
  deleteDeadLetter: forget a dead letter (an operator decided it needs no replay).

  Why it is safe: the record and its index entry go together, so the index never names a missing
  record; only the dead-letter store is touched, never a pending message with the same id.

  KEYS[1] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[2] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)
  KEYS[3] dead-letter bytes  STRING  sum of the lengths of the slot's dead-letter records

  ARGV[1] message id

  Returns: 1 when deleted, 0 when there was no such dead letter
]]
-- @include lib/trimDeadLetters
local existed = redis.call('HEXISTS', KEYS[1], ARGV[1])
removeDeadLetters(KEYS[1], KEYS[2], KEYS[3], { ARGV[1] })
return existed
