--[[
  replayDeadLetter: schedule a dead letter again and remove it from the dead-letter store, in one
  step: it is never in both places, and never in neither.

  Why it is safe: the record is replayed only if it is still the one the caller read (same SHA1),
  so a record replaced in the meantime is not lost; and only if no message with the same id is
  pending or in flight (as its member, lib/memberIds, or as the id itself), so nothing is
  overwritten or stored twice. Replay is an explicit operator
  decision, so it clears the id's delivered record (dedupe window) and cancel record, which would
  otherwise make the next schedule of this id a duplicate or a cancelled arrival. The due time comes
  from Redis's clock and the maximum delay applies, as in schedule.lua.

  KEYS[1] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[2] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)
  KEYS[3] due set            ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[4] payloads           HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[5] delivered set      ZSET  member = message member, score = delivery time (epoch ms)
  KEYS[6] cancelled set      ZSET  member = message member, score = cancel time (epoch ms)
  KEYS[7] names              HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[8] dead-letter bytes  STRING  sum of the lengths of the slot's dead-letter records
  KEYS[9] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)

  ARGV[1] message id (the dead letter's key; scheduled as its member)
  ARGV[2] SHA1 (hex) of the dead-letter record the caller read
  ARGV[3] maximum delay in ms
  ARGV[4] mode: "delay" (ARGV[5] ms from now) or "at" (ARGV[5] is the due time, epoch ms)
  ARGV[5] value in ms
  ARGV[6] envelope of the message to schedule (wire form; stored with its target and origin stem interned, or as it
          is when the names hash is full: lib/internNames)
  ARGV[7] names cap: names the slot's names hash holds at most (lib/nameCodes)
  ARGV[8] names cap: bytes of names the slot's names hash holds at most

  Returns: the due time (epoch ms, >= 0), or
    -1 a message with this id is pending or in flight; nothing changed
    -2 no dead letter with this id; nothing changed
    -3 the dead letter changed since the caller read it; nothing changed
    -4 the due time lies beyond the maximum delay; nothing changed
]]
-- @include lib/internNames
-- @include lib/memberIds
-- @include lib/trimDeadLetters
-- @include lib/groups
local id = ARGV[1]
local record = redis.call('HGET', KEYS[1], id)
if not record then return -2 end
if redis.sha1hex(record) ~= ARGV[2] then return -3 end
local codes = nameCodes(KEYS[7])
codes.capAt(tonumber(ARGV[7]), tonumber(ARGV[8]))
local ids = memberIds(codes)
for _, member in ipairs(ids.lookupMembers(id)) do
  if redis.call('HEXISTS', KEYS[4], member) == 1 then return -1 end
end
-- @include lib/redisNow
local due
if ARGV[4] == 'delay' then due = now + tonumber(ARGV[5]) else due = tonumber(ARGV[5]) end
if due - now > tonumber(ARGV[3]) then return -4 end
local member = ids.toMember(id)
redis.call('ZREM', KEYS[5], member, id)
redis.call('ZREM', KEYS[6], member, id)
redis.call('ZADD', KEYS[3], due, member)
redis.call('HSET', KEYS[4], member, (namesInterner(codes)(ARGV[6])))
local group = groupOf(ARGV[6])
if group then groupIndexAdd(KEYS[9], group, member, due) end
removeDeadLetters(KEYS[1], KEYS[2], KEYS[8], { id })
return due
