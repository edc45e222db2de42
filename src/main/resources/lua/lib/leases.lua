--[[
  leases (a fragment, included by claim, acknowledge, reschedule, recordFailure, deadLetter and
  reapExpiredLeases): the lease rule, in one place. A claimed message is in the slot's in-flight set with its
  lease deadline as its score, and that deadline is also the lease's token: claim.lua returns it, and only a
  caller that presents it can settle the message (acknowledge, reschedule, recordFailure, deadLetter). A
  message leaves the in-flight set to be claimed again only once its deadline has passed
  (reapExpiredLeases.lua), and a new claim's deadline is its now plus a lease of at least 1 ms (or a few ms
  more: uniqueLeaseDeadline), so a later claim always has a later deadline than any earlier one: a stalled
  holder's token never matches again. A separate token per claim would cost a hash write per message to
  claim and a read per message to settle, for nothing this does not give.

    leaseDeadline(now, leaseMs)               the deadline, and token, of a claim made at now (leaseMs > 0)
    uniqueLeaseDeadline(inFlightKey, deadline)  deadline, or 1 ms past the latest deadline in flight when that
                                              is not earlier, so that it names the messages of one claim call
                                              (releaseClaim). One look-up: stepping 1 ms at a time past the
                                              deadlines in use cost a ZCOUNT a step, and a drain's claim calls,
                                              pipelined faster than one a millisecond, walked ever longer runs
                                              (about 140 steps a call in a 100,000-message claim)
    holdsLease(inFlightKey, member, token)    whether member is in flight under token (one ZSCORE)
    heldLeases(inFlightKey, members, tokens)  the members of a batch that are in flight under their tokens,
                                              in order (one ZMSCORE for the batch)
    expiredLeases(inFlightKey, now, limit)    up to limit members whose deadline has passed (<= now)
]]
local function leaseDeadline(now, leaseMs)
  return now + leaseMs
end

local function uniqueLeaseDeadline(inFlightKey, deadline)
  -- only claims write the in-flight set, so its highest score is the latest deadline handed out
  local latest = tonumber(redis.call('ZRANGE', inFlightKey, -1, -1, 'WITHSCORES')[2])
  if latest and latest >= deadline then return latest + 1 end
  return deadline
end

local function holdsLease(inFlightKey, member, token)
  return tonumber(redis.call('ZSCORE', inFlightKey, member)) == tonumber(token)
end

local function heldLeases(inFlightKey, members, tokens)
  local held = {}
  if #members == 0 then return held end
  local deadlines = redis.call('ZMSCORE', inFlightKey, unpack(members))
  local n = 0
  for i = 1, #members do
    -- the same text is the same number (Redis writes an integral score without a fraction); compared as numbers otherwise
    local deadline = deadlines[i]
    if deadline and (deadline == tokens[i] or tonumber(deadline) == tonumber(tokens[i])) then
      n = n + 1
      held[n] = members[i]
    end
  end
  return held
end

local function expiredLeases(inFlightKey, now, limit)
  return redis.call('ZRANGEBYSCORE', inFlightKey, '-inf', now, 'LIMIT', 0, limit)
end
