--[[
  schedule: store a batch of delayed messages, each with its due time, atomically.

  Why it is safe: the due time is computed here from Redis's own clock (TIME), so bridge
  hosts with skewed clocks agree; a message whose id is already pending, in flight, or
  delivered within the dedupe window is not stored twice (a Kafka re-poll or an AMQP
  redelivery of the same message is harmless); a message that reuses the id of a pending or
  in-flight message with a different payload is told apart (-5) rather than dropped as a copy: the
  payloads are compared without their origin (contentOf below), so the same message sent again
  (a producer's retry, at another offset) is still a copy; a message whose id was cancelled within the
  cancel window is not stored at all, so a cancel wins even when it arrived first. Each id is
  stored and looked up as its member (lib/memberIds). Pending and delivered records are looked up
  under the member only; a cancel record is also looked up under the id verbatim when that differs
  (one more lookup, in a set that is usually empty), so that a cancel recorded while the names hash
  was full still wins once the id packs (lib/memberIds).

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] payloads       HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[3] delivered set  ZSET  member = message member, score = delivery time (dedupe window)
  KEYS[4] cancelled set  ZSET  member = message member, score = cancel time (cancel window)
  KEYS[5] names          HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[6] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)

  ARGV[1] maximum delay in ms (a due time further than this from now is refused)
  ARGV[2] dedupe window in ms (a delivered record older than this no longer blocks the id; the
          acknowledge script trims such records only lazily, so they may still be in the set)
  ARGV[3] cancel window in ms (a cancel record older than this no longer blocks the id; the
          cancel script trims such records only lazily)
  ARGV[4] names cap: names the slot's names hash holds at most (lib/nameCodes)
  ARGV[5] names cap: bytes of names the slot's names hash holds at most
  ARGV[6..] groups of four per message: message id (stored as its member), mode ("delay" or "at"),
          value (ms), envelope (wire form; stored with its target and origin stem interned, or as it is
          when the names hash is full: lib/internNames)

  Returns: { result1, result2, ..., now, uninterned }
    result   one per message, in order: its due time (epoch ms, >= 0), or a negative code:
               -1 already pending or in flight, with the same payload (not stored again)
               -2 delivered within the dedupe window (not stored again)
               -3 due time beyond the maximum delay (not stored)
               -4 cancelled within the cancel window (not stored: the cancel wins)
               -5 the id is pending or in flight (or earlier in this batch) with a different payload
                  (not stored; the bridge dead-letters this one as duplicate-id)
    now      Redis's current time (epoch ms)
    uninterned  how many of the stored payloads were stored in the wire form because the names hash is full
]]
-- @include lib/redisNow
-- @include lib/internNames
-- @include lib/memberIds
-- @include lib/groups
local codes = nameCodes(KEYS[5])
codes.capAt(tonumber(ARGV[4]), tonumber(ARGV[5]))
local intern = namesInterner(codes)
local ids = memberIds(codes)
local maxDelay = tonumber(ARGV[1])

-- What a payload would deliver, the same for its stored form and its wire form (lib/internNames; a payload is stored
-- in the wire form when the names hash is full): flags, target and the rest, without the origin stem and origin number
-- (where it was consumed, which differs for the same message sent again). nil for a payload that is neither (damage)
-- or a stored one whose target code the names hash lacks, which is not compared.
local function contentOf(payload)
  local first, second = string.byte(payload, 1, 2)
  local flags, target, restAt
  if second and second >= 0x80 then
    if first ~= codes.tag() then return nil end
    flags = second - 0x80
    local targetCode, stemAt = readVarint(payload, 3)
    if not targetCode then return nil end
    target = codes.nameOf(targetCode)
    local _, afterStem = readVarint(payload, stemAt)
    restAt = afterStem
  elseif first == 0xDB and second == 3 then
    flags = string.byte(payload, 3)
    if not flags or flags >= 0x80 then return nil end
    local targetLength, targetAt = readVarint(payload, 4)
    if not targetLength then return nil end
    target = string.sub(payload, targetAt, targetAt + targetLength - 1)
    local stemLength, stemAt = readVarint(payload, targetAt + targetLength)
    if stemLength then restAt = stemAt + stemLength end
  end
  if not target or not restAt then return nil end
  if flags % 0x20 >= 0x10 then
    local _, afterNumber = readVarint(payload, restAt)
    if not afterNumber then return nil end
    restAt = afterNumber
    flags = flags - 0x10
  end
  return string.char(flags) .. varint(#target) .. target .. string.sub(payload, restAt)
end
local window = tonumber(ARGV[2])
local cancelWindow = tonumber(ARGV[3])

-- Each lookup and each write is one call for the whole batch (as in claim.lua), not one per message.
local given, members = {}, {}
for i = 6, #ARGV, 4 do
  given[#given + 1] = ARGV[i]
  members[#members + 1] = ids.toMember(ARGV[i])
end
local n = #members
local results = {}
local uninterned = 0
if n > 0 then
  local stored = redis.call('HMGET', KEYS[2], unpack(members))
  local delivered = redis.call('ZMSCORE', KEYS[3], unpack(members))
  local cancelled = {}
  -- the cancelled set is usually empty (absent): then no message needs a look there
  if redis.call('EXISTS', KEYS[4]) == 1 then
    cancelled = redis.call('ZMSCORE', KEYS[4], unpack(members))
    local verbatim, at = {}, {}
    for k = 1, n do
      if not cancelled[k] and members[k] ~= given[k] then
        verbatim[#verbatim + 1] = given[k]
        at[#at + 1] = k
      end
    end
    if #verbatim > 0 then
      local found = redis.call('ZMSCORE', KEYS[4], unpack(verbatim))
      for j = 1, #at do cancelled[at[j]] = found[j] end
    end
  end
  local storedNow = {} -- a second copy of an id within this batch is a duplicate of the first
  local dues, payloads = {}, {}
  for k = 1, n do
    local i = 4 * k + 2
    local member, mode, value = members[k], ARGV[i + 1], tonumber(ARGV[i + 2])
    local due
    if mode == 'delay' then due = now + value else due = value end
    local earlier = stored[k] or storedNow[member]
    if earlier then
      local before, given_ = contentOf(earlier), contentOf((intern(ARGV[i + 3])))
      if before and given_ and before ~= given_ then results[k] = -5 else results[k] = -1 end
    elseif cancelled[k] and tonumber(cancelled[k]) > now - cancelWindow then
      results[k] = -4
    elseif delivered[k] and tonumber(delivered[k]) > now - window then
      results[k] = -2
    elseif due - now > maxDelay then
      results[k] = -3
    else
      local payload, asGiven = intern(ARGV[i + 3])
      if asGiven then uninterned = uninterned + 1 end
      storedNow[member] = payload
      local group = groupOf(payload)
      if group then groupIndexAdd(KEYS[6], group, member, due) end
      dues[#dues + 1] = due
      dues[#dues + 1] = member
      payloads[#payloads + 1] = member
      payloads[#payloads + 1] = payload
      results[k] = due
    end
  end
  if #dues > 0 then
    redis.call('ZADD', KEYS[1], unpack(dues))
    redis.call('HSET', KEYS[2], unpack(payloads))
  end
end
results[n + 1] = now
results[n + 2] = uninterned
return results
