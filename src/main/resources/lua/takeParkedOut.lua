--[[
  takeParkedOut: take up to a number of a target's parked messages of one slot, due before a time, out of parking for
  one claim: due at once, and exempt from being parked again by that claim (claim.lua), while the target stays parked.
  The bridge takes one, the oldest that is due (claims park messages ahead of their due time too: claim.lua), to probe a
  parked target; and, once a target has been parked longer than
  bridge.retry.max-age-ms, every message that has been due longer than that, to be dead-lettered as publish-failed
  when claimed (dispatch/parking/ParkedTargets#tooOld).

  Why it is safe: the messages go back through a claim, under a lease, like any due message; nothing is deleted
  here. A message's due time before this move is kept as its original due time (HSETNX: an earlier one wins), for
  x-delay-due-at, lateness and its age. Stale index entries (lib/parked) are dropped.

  KEYS[1] due set            ZSET  member = message member (lib/memberIds), score = due time, or due time +
                                   PARKED_OFFSET while parked (lib/parked)
  KEYS[2] parked index prefix  STRING prefix: the target's parked index (ZSET, member = message member, score = due
                                   time: its parked messages in this slot, lib/parked) is this followed by the target
  KEYS[3] parking exemptions  SET  members the next claim of each leases instead of parking (claim.lua)
  KEYS[4] original due       HASH  field = message member, value = its due time before the bridge first moved it

  ARGV[1] the target
  ARGV[2] at most this many messages (> 0)
  ARGV[3] only messages due before this time (epoch ms, exclusive), or '+inf'

  Returns: { takenOut, left }
    takenOut  messages made due now and exempt
    left      entries still in the target's parked index of this slot (stale ones included)
]]
-- @include lib/redisNow
-- @include lib/parked
local index = KEYS[2] .. ARGV[1]
local limit = tonumber(ARGV[2])
local upTo = ARGV[3] == '+inf' and '+inf' or ('(' .. ARGV[3])
-- stale entries are read past (up to 100 more than asked), so that one stale entry does not stop a probe
local entries = redis.call('ZRANGEBYSCORE', index, '-inf', upTo, 'WITHSCORES', 'LIMIT', 0, limit + 100)
local taken, read = 0, {}
for i = 1, #entries, 2 do
  if taken == limit then break end
  local member = entries[i]
  read[#read + 1] = member
  if isParked(KEYS[1], member) then
    redis.call('ZADD', KEYS[1], 'XX', now, member)
    redis.call('SADD', KEYS[3], member)
    redis.call('HSETNX', KEYS[4], member, entries[i + 1])
    taken = taken + 1
  end
end
if #read > 0 then redis.call('ZREM', index, unpack(read)) end
return { taken, redis.call('ZCARD', index) }
