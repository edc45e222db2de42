--[[
  returnParked: return up to a number of a target's parked messages of one slot to the due set, at their own due
  times and in due order, for a target that answers again (or was resumed). The bridge calls it at the rate it
  returns a target's backlog (ParkedTargets), after it has taken the target out of every slot's parked targets, so
  claims take the returned messages like any due ones and do not park them again.

  Why it is safe: a message moves only from its parked score to its due time (ZADD XX: never resurrected once
  cancelled); an index entry whose member does not sit parked is stale (lib/parked) and only dropped.

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time, or due time + PARKED_OFFSET
                               while parked (lib/parked)
  KEYS[2] parked index prefix  STRING prefix: the target's parked index (ZSET, member = message member, score = due
                               time: its parked messages in this slot, lib/parked) is this followed by the target

  ARGV[1] the target
  ARGV[2] at most this many index entries to read (> 0)

  Returns: { returned, left }
    returned  messages moved back to the due set
    left      entries still in the target's parked index of this slot (stale ones included)
]]
-- @include lib/parked
local index = KEYS[2] .. ARGV[1]
local entries = redis.call('ZRANGE', index, 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
local returned, read = 0, {}
for i = 1, #entries, 2 do
  local member = entries[i]
  read[#read + 1] = member
  if isParked(KEYS[1], member) then
    redis.call('ZADD', KEYS[1], 'XX', tonumber(entries[i + 1]), member)
    returned = returned + 1
  end
end
if #read > 0 then redis.call('ZREM', index, unpack(read)) end
return { returned, redis.call('ZCARD', index) }
