--[[
  cancelGroup: withdraw, in due order, up to a batch of the pending messages of one group in this slot, as cancel.lua
  withdraws one; a big group takes several calls, so Redis is never held for long.

  Why it is safe: each message is decided and changed in this one step, from the slot's own sets: a pending message (in
  the due set) is withdrawn and recorded as cancelled (the cancel window, as cancel.lua); a message in flight is counted
  and left alone (its publish may already be on the broker), and stays indexed until it leaves; an index entry whose
  message is neither (left by a path that did not clean it) is dropped, never acted on, so nothing is brought back. A dry
  run reads and counts the same way and changes nothing. The caller continues from nextOffset: the in-flight members stay
  in front of the ones not yet seen, so the offset is how many of them (and, in a dry run, every member seen).

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] payloads       HASH  field = message member, value = envelope bytes
  KEYS[3] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[4] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[5] cancelled set  ZSET  member = message member, score = cancel time (epoch ms)
  KEYS[6] failing since  HASH  field = message member, value = time of its first failed publish (recordFailure.lua)
  KEYS[7] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)
  KEYS[8] original due   HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua)

  ARGV[1] group name
  ARGV[2] cancel window in ms (0 keeps no cancel record)
  ARGV[3] batch: index entries read at most in this call
  ARGV[4] offset: where in the index (in due order) this call starts, the previous call's nextOffset (0 at first)
  ARGV[5] 1 for a dry run (count, change nothing), 0 to cancel

  Returns: { cancelled, inFlight, nextOffset, done }
    cancelled   messages withdrawn (a dry run: that would be)
    inFlight    messages in flight, left alone
    nextOffset  the offset of the next call
    done        1 when the index has nothing after this batch, 0 when the caller should call again
]]
-- @include lib/redisNow
-- @include lib/groups
local index = KEYS[7] .. ARGV[1]
local cancelWindow, batch, offset = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local dryRun = ARGV[5] == '1'
local members = redis.call('ZRANGE', index, offset, offset + batch - 1)
local cancelled, inFlight, stale = {}, 0, {}
if #members > 0 then
  local pending = redis.call('ZMSCORE', KEYS[1], unpack(members))
  local leased = redis.call('ZMSCORE', KEYS[3], unpack(members))
  for i, member in ipairs(members) do
    if leased[i] then inFlight = inFlight + 1
    elseif pending[i] then cancelled[#cancelled + 1] = member
    else stale[#stale + 1] = member end
  end
end
if dryRun then
  return { #cancelled, inFlight, offset + #members, #members < batch and 1 or 0 }
end
if #stale > 0 then redis.call('ZREM', index, unpack(stale)) end
if #cancelled > 0 then
  redis.call('ZREM', KEYS[1], unpack(cancelled))
  redis.call('HDEL', KEYS[2], unpack(cancelled))
  if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('HDEL', KEYS[4], unpack(cancelled)) end
  if redis.call('EXISTS', KEYS[6]) == 1 then redis.call('HDEL', KEYS[6], unpack(cancelled)) end
  if redis.call('EXISTS', KEYS[8]) == 1 then redis.call('HDEL', KEYS[8], unpack(cancelled)) end
  redis.call('ZREM', index, unpack(cancelled))
  if cancelWindow > 0 then
    local records = {}
    for i, member in ipairs(cancelled) do
      records[2 * i - 1] = now
      records[2 * i] = member
    end
    redis.call('ZADD', KEYS[5], unpack(records))
  end
end
if cancelWindow > 0 then
  local expired = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now - cancelWindow, 'LIMIT', 0, 1000)
  if #expired > 0 then redis.call('ZREM', KEYS[5], unpack(expired)) end
end
return { #cancelled, inFlight, offset + inFlight, #members < batch and 1 or 0 }
