--[[
  deadLetter: move a claimed message that will never be delivered into the dead-letter store, in the
  same step that removes it from the delivery structures. Called after the dead-letter broker
  channel has acknowledged the message, so it is never only in neither place.

  Why it is safe: only the holder of the lease can do it (lib/leases: a stale instance changes nothing), and the
  store is bounded: each call trims at most 100 of the oldest records beyond the count, age or byte limit.

  KEYS[1] in-flight set      ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] payloads           HASH  field = message member, value = envelope bytes
  KEYS[3] attempts           HASH  field = message member, value = failed delivery attempts so far
  KEYS[4] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[5] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)
  KEYS[6] failing since      HASH  field = message member, value = time of its first failed publish (recordFailure.lua)
  KEYS[7] dead-letter bytes  STRING  sum of the lengths of the slot's dead-letter records
  KEYS[8] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)
  KEYS[9] original due       HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua)

  ARGV[1] message member (as claim.lua returned it, used as given)
  ARGV[2] lease token: the lease deadline the claim returned (claim.lua)
  ARGV[3] dead-letter record bytes
  ARGV[4] maximum records kept in this slot's store
  ARGV[5] maximum age of a record in ms
  ARGV[6] message id: the dead-letter store's key (the id claim.lua returned, or the bridge's stand-in
          for a member it could not resolve)
  ARGV[7] maximum bytes of records kept in this slot's store

  Returns: 1 when moved, -1 when the lease no longer matched (nothing changed)
]]
-- @include lib/leases
local member, token, id = ARGV[1], ARGV[2], ARGV[6]
if not holdsLease(KEYS[1], member, token) then return -1 end
-- @include lib/redisNow
-- @include lib/trimDeadLetters
-- @include lib/groups
local group = groupOf(redis.call('HGET', KEYS[2], member))
if group then groupIndexRemove(KEYS[8], group, member) end
redis.call('ZREM', KEYS[1], member)
redis.call('HDEL', KEYS[2], member)
redis.call('HDEL', KEYS[3], member)
redis.call('HDEL', KEYS[6], member)
redis.call('HDEL', KEYS[9], member)
putDeadLetter(KEYS[4], KEYS[5], KEYS[7], id, ARGV[3], now)
trimDeadLetters(KEYS[4], KEYS[5], KEYS[7], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[7]), now)
return 1
