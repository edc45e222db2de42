--[[
  countParked: how many messages of one slot are parked, in all and for each of some targets. Changes nothing.

  Why it is safe: read-only; ZCOUNT and ZCARD, O(log n) each.

  KEYS[1] due set              ZSET  member = message member (lib/memberIds), score = due time, or due time +
                                     PARKED_OFFSET while parked (lib/parked)
  KEYS[2] parked index prefix  STRING prefix: a target's parked index (ZSET, member = message member, score = due
                                     time) is this followed by the target

  ARGV[1..] targets: a target

  Returns: { parked, indexed1, indexed2, ... }
    parked   messages of the slot sitting parked, whatever their target
    indexed  entries of each target's parked index, in ARGV's order: its parked messages, and any cancelled or moved
             since they were parked that no return or expiry has read yet (lib/parked)
]]
-- @include lib/parked
local counts = { redis.call('ZCOUNT', KEYS[1], PARKED_OFFSET, '+inf') }
for i = 1, #ARGV do counts[i + 1] = redis.call('ZCARD', KEYS[2] .. ARGV[i]) end
return counts
