--[[
  replace: swap a pending message's payload (target, key, headers, properties and body) and due time for those of a
  replacement, in one step, keeping its id, its member (so its slot) and nothing else of the old message.

  Why it is safe: only a message still in the due set is replaced, in one step, so no instance can claim it half-way
  (with the old due time and the new payload, or the reverse). A claimed message is reported and left alone: its old
  payload may already be on the broker, and sending the new one too would deliver two different payloads under one id.
  An id that is not pending is never stored as a new message here (a replace says "this message exists"; a new message
  is sent without x-control): the reply says where the id stands instead, and nothing changes. Every check runs before
  the first write (interning a name writes to the names hash), so a refused replace changes nothing. The replacement
  starts afresh: its attempt count and failing-since are removed with the old payload. The id is looked up as its
  member (lib/memberIds, without writing), then as the id itself; the replacement is stored under the member the old
  payload had. The due time comes from Redis's clock and the maximum delay applies, as in schedule.lua. The group index
  follows the payload: the old payload's group entry goes and the replacement's group (if any) gets one at the new due
  time, so a replace may move a message from one group to another, out of its group, or into one.

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] payloads       HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[3] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[4] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[5] failing since  HASH  field = message member, value = time of its first failed publish (recordFailure.lua)
  KEYS[6] delivered set  ZSET  member = message member, score = delivery time (epoch ms)
  KEYS[7] cancelled set  ZSET  member = message member, score = cancel time (epoch ms)
  KEYS[8] dead letters   HASH  field = message id, value = dead-letter record bytes
  KEYS[9] names          HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[10] original due  HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua):
                               dropped, as the replacement's due time is the one it is due at
  KEYS[11] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)

  ARGV[1] message id
  ARGV[2] mode: "delay" (ARGV[3] ms from now) or "at" (ARGV[3] is the due time, epoch ms)
  ARGV[3] value in ms
  ARGV[4] maximum delay in ms (a due time further than this from now is refused)
  ARGV[5] dedupe window in ms (how long a delivered id is said to be delivered)
  ARGV[6] cancel window in ms (how long a cancelled id is said to be cancelled)
  ARGV[7] names cap: names the slot's names hash holds at most (lib/nameCodes)
  ARGV[8] names cap: bytes of names the slot's names hash holds at most
  ARGV[9] envelope of the replacement (wire form; stored with its target and origin stem interned, or as it is when
          the names hash is full: lib/internNames)

  Returns: { result, uninterned }
    result      the new due time (epoch ms, >= 0), or a negative code; nothing changed for any of them:
                  -1 in flight: claimed for delivery with its old payload
                  -2 delivered within the dedupe window
                  -3 cancelled within the cancel window
                  -4 a dead letter (not delivered unless replayed)
                  -5 not known: never stored, or its records are older than their windows
                  -6 the new due time lies beyond the maximum delay (the message is pending)
    uninterned  1 when the replacement was stored in the wire form because the names hash is full, else 0
]]
-- @include lib/redisNow
-- @include lib/internNames
-- @include lib/memberIds
-- @include lib/groups
local id = ARGV[1]
local codes = nameCodes(KEYS[9])
codes.capAt(tonumber(ARGV[7]), tonumber(ARGV[8]))
local ids = memberIds(codes)
local members = ids.lookupMembers(id)

-- Read the old message: where it stands, and under which member (no write before this decides). Its payload is the
-- payloads hash's field `old` until the HSET below overwrites it: what the old message held is read here, if needed.
local old
for _, member in ipairs(members) do
  if redis.call('ZSCORE', KEYS[3], member) then return { -1, 0 } end
  if not old and redis.call('ZSCORE', KEYS[1], member) then old = member end
end
if not old then
  local cancelledAt = ids.latestScore(KEYS[7], members)
  if cancelledAt and cancelledAt > now - tonumber(ARGV[6]) then return { -3, 0 } end
  local deliveredAt = ids.latestScore(KEYS[6], members)
  if deliveredAt and deliveredAt > now - tonumber(ARGV[5]) then return { -2, 0 } end
  if redis.call('HEXISTS', KEYS[8], id) == 1 then return { -4, 0 } end
  return { -5, 0 }
end
local due
if ARGV[2] == 'delay' then due = now + tonumber(ARGV[3]) else due = tonumber(ARGV[3]) end
if due - now > tonumber(ARGV[4]) then return { -6, 0 } end

-- Write the new one under the old member: payload, due time, and a fresh start (no attempts, not failing).
local oldGroup = groupOf(redis.call('HGET', KEYS[2], old))
if oldGroup then groupIndexRemove(KEYS[11], oldGroup, old) end
local payload, asGiven = namesInterner(codes)(ARGV[9])
redis.call('HSET', KEYS[2], old, payload)
redis.call('ZADD', KEYS[1], 'XX', due, old)
redis.call('HDEL', KEYS[4], old)
redis.call('HDEL', KEYS[5], old)
redis.call('HDEL', KEYS[10], old)
local newGroup = groupOf(payload)
if newGroup then groupIndexAdd(KEYS[11], newGroup, old, due) end
if asGiven then return { due, 1 } end
return { due, 0 }
