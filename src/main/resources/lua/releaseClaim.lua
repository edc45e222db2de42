--[[
  releaseClaim: give back, due at once, the messages a claimer's round leased in this slot when the claimer
  never got claim.lua's answer (a timeout, a lost connection), so that they need not wait out their lease.
  Not counted as a failed attempt: nothing was published.

  Why it is safe: claim.lua records, per claimer and slot, its round and the lease deadline of each of the
  round's calls that leased anything, and a deadline names one call's messages (lib/leases,
  uniqueLeaseDeadline). Only messages still in flight under one of those deadlines are released: one already
  reaped, or claimed again by anyone, holds another deadline and is left alone. The claimer sends this on the
  connection it sent the claim on, so the claim, if Redis received it, ran first; with no record of this round
  the claim did not run (or leased nothing) and nothing is released. The record is deleted, so releasing twice
  releases once.

  KEYS[1] in-flight set  ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] due set        ZSET  member = message member, score = due time (epoch ms)
  KEYS[3] claim records  HASH  field = claimer id, value = "<round> <lease deadline> ..." (claim.lua)

  ARGV[1] claimer id
  ARGV[2] the round, as given to claim.lua

  Returns: the number of messages given back to the due set
]]
-- @include lib/redisNow
local claimer, round = ARGV[1], ARGV[2]
local record = redis.call('HGET', KEYS[3], claimer)
if not record or string.sub(record, 1, #round + 1) ~= round .. ' ' then return 0 end
redis.call('HDEL', KEYS[3], claimer)
local released = 0
for deadline in string.gmatch(string.sub(record, #round + 2), '%S+') do
  local members = redis.call('ZRANGEBYSCORE', KEYS[1], deadline, deadline)
  if #members > 0 then
    local due = {}
    for i, member in ipairs(members) do
      due[2 * i - 1] = now
      due[2 * i] = member
    end
    redis.call('ZREM', KEYS[1], unpack(members))
    redis.call('ZADD', KEYS[2], unpack(due))
    released = released + #members
  end
end
return released
