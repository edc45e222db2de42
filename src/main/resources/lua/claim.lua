--[[
  claim: take up to a batch of due messages for delivery, under a lease.

  Why it is safe: moving a member from the due set to the in-flight set happens inside one
  script, so two bridge instances can never claim the same message. The lease deadline (its score
  in the in-flight set) is also the lease's token: only a caller that presents it can later
  acknowledge, reschedule or dead-letter the message, and a later claim always gets a later
  deadline (lib/leases: the rule, in one place).

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[3] payloads       HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[4] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[5] names          HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[6] claim records  HASH  field = claimer id, value = "<round> <lease deadline> ...": what that claimer's
                               latest round leased in this slot (releaseClaim.lua)
  KEYS[7] lease claimers  ZSET  member = "<claimer id> <lease deadline> <claimed at> <latest due>", score = the lease
                               deadline: who took each call's messages, when, and the latest due time among them
                               (takeBackLeases.lua); entries whose deadline has passed are dropped
  KEYS[8] original due   HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua,
                               reschedule.lua); only messages whose score was moved have a field
  KEYS[9] parked targets  SET  the targets whose messages this slot parks instead of leasing (lib/parked)
  KEYS[10] parked index prefix  STRING prefix: the key of a target's parked index is this followed by the target
  KEYS[11] parking exemptions  SET  members taken out of parking for one claim (takeParkedOut.lua: a probe, an expiry)

  ARGV[1] batch size (maximum number of messages to claim)
  ARGV[2] lease duration in ms (> 0)
  ARGV[3] claimer id (a dispatcher's own: "<instance id>/<random>", no spaces in the random part), or empty:
          nothing recorded
  ARGV[4] the claimer's round; this call's lease deadline is added to the claimer's record of that round, so
          that a claimer that never got the answer can give exactly these messages back (releaseClaim.lua)
  ARGV[5] how far ahead to claim, in ms (>= 0): messages due up to now + this are claimed.
          The bridge holds such a message until its due time before it publishes it (dispatch/ReleaseClock), so the
          claim's round trip and the thread hand-offs before a publish happen ahead of time, not after it is due

  A due message whose target is in the parked targets is parked instead (lib/parked: it stays in the due set, out of
  every claim's reach, and enters its target's parked index), unless it is in the parking exemptions, which this call
  then removes it from: so a dead or paused target's messages are read once, not claimed again and again, and the other
  targets' claims never see them. A call that parks also parks the parked targets' messages that follow in the due set,
  up to the first message of another target (or exempt), within PARK_AHEAD_MS and at most PARK_AHEAD_MAX of them: else
  each of them, falling due, would be the next due time the caller sleeps until, and wake it for a claim that only parks
  it (a dead target's steady flow then cost as many claims as messages). While no target is parked, this costs one EXISTS.

  The lease deadline of a call that leases anything differs from every deadline already in the in-flight set
  (lib/leases, uniqueLeaseDeadline), so a deadline names the messages of one call. Every read and check that can
  fail comes before the first write: Redis does not undo a script's writes when it fails halfway, so an error
  reply means nothing was claimed (nothing half-moved: out of the due set but in no lease). A call that records
  also drops one other claimer's record whose leases have all passed (a dispatcher that stopped), so the hash
  holds about one record per running dispatcher, and adds the call to the lease claimers (dropping the entries whose
  deadline has passed: the reaper takes those leases back), so that a restarted process can give back at once what
  its dead predecessor leased, in every round, not just the latest.

  Returns: { now, nextDue, leaseDeadline, namesTag, member1, due1, attempts1, envelope1, originalDue1, member2, ... }
    now      Redis's current time (epoch ms)
    nextDue  due time of the earliest message still waiting after this claim, or -1 if none:
             the caller may sleep until then (less how far ahead it claims)
    leaseDeadline  now + lease duration: the lease token of every message of this claim
    namesTag the slot's names hash's tag (lib/nameCodes) at claim time, or -1 when it has none: the bridge
             resolves the codes of packed members and stored payloads itself, with its copy of the names hash
             (store/SlotNames; the hash is append-only, so a copy stays right for as long as the tag is the same),
             and fetches codes it lacks with resolveNames.lua
    member   the member as stored (lib/memberIds: a packed id, or the id verbatim): the bridge turns a packed
             one back into the id, and settles the message with the member as given (acknowledge, reschedule,
             deadLetter), so a member is never converted twice
    originalDue  the due time the message had before the bridge moved it (a deferral, a retry), or -1 when it was not
             moved (its due time is the score)
    envelope the payload as stored (lib/internNames: the stored form, or a wire form of versions 1 and 2); the
             bridge expands it. Nil when the payload is missing (evicted or deleted): the bridge dead-letters the
             message as payload-missing

  Why the bridge expands, not this script: a claim is the busiest script when a backlog drains, and Redis is
  then the bottleneck (one thread for every instance); the expansion is about a sixth of a claim's time, and
  the bridge's instances share it out instead.
]]
-- @include lib/redisNow
-- @include lib/leases
-- @include lib/parked
-- @include lib/nameCodes
-- @include lib/envelopeTarget
-- how far past what it claims a call that parks looks for more of the parked targets' messages (see above)
local PARK_AHEAD_MS, PARK_AHEAD_MAX, PARK_AHEAD_CHUNK = 1000, 200, 16
local leaseUntil = leaseDeadline(now, tonumber(ARGV[2]))
local claimUpTo = now + tonumber(ARGV[5])
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', claimUpTo, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[1]))
local result = { now, -1, leaseUntil, -1 }
-- the payloads of the messages a parking pass kept, in their order: read once for both passes
local keptEnvelopes
if #due > 0 and redis.call('EXISTS', KEYS[9]) == 1 then
  local parkedTargets = {}
  for _, target in ipairs(redis.call('SMEMBERS', KEYS[9])) do parkedTargets[target] = true end
  local dueMembers = {}
  for i = 1, #due, 2 do dueMembers[#dueMembers + 1] = due[i] end
  local envelopes = redis.call('HMGET', KEYS[3], unpack(dueMembers))
  -- a stored payload names its target by code: the parked targets' codes are looked up once, never a payload expanded
  local codes = nameCodes(KEYS[5])
  local tag, parkedByCode = codes.tag(), {}
  for target in pairs(parkedTargets) do
    local code = codes.knownCode(target)
    if code then parkedByCode[code] = target end
  end
  local function parkedTargetOf(envelope)
    local head = string.byte(envelope, 2)
    if head and head >= 0x80 then
      if string.byte(envelope, 1) ~= tag then return nil end
      return parkedByCode[readVarint(envelope, 3) or -1]
    end
    local target = envelopeTarget(envelope, 1)
    return target and parkedTargets[target] and target
  end
  -- the exemptions set is empty but for a probe or an expiry in progress: no command per message to ask it otherwise
  local anyExempt = redis.call('SCARD', KEYS[11]) > 0
  -- one ZADD for the due set and one per target index, not one per message: a dead target's backlog falls due in bulk
  local kept, parkedScores, byTarget = {}, {}, {}
  keptEnvelopes = {}
  local function park(member, score, target)
    parkedScores[#parkedScores + 1] = PARKED_OFFSET + score
    parkedScores[#parkedScores + 1] = member
    local index = byTarget[target]
    if not index then index = {}; byTarget[target] = index end
    index[#index + 1] = score
    index[#index + 1] = member
  end
  for i = 1, #due, 2 do
    local member, score = due[i], tonumber(due[i + 1])
    local envelope = envelopes[(i + 1) / 2]
    local target = envelope and parkedTargetOf(envelope)
    if target and not (anyExempt and redis.call('SREM', KEYS[11], member) == 1) then
      park(member, score, target)
    else
      kept[#kept + 1] = member
      kept[#kept + 1] = due[i + 1]
      keptEnvelopes[#keptEnvelopes + 1] = envelope
    end
  end
  if #parkedScores > 0 then
    -- parked ahead of their due time: nothing is sent early, as a parked message keeps its due time in its index, returns
    -- to the due set at it, and is taken out for a probe only once due (ParkedTargetsWork)
    -- read in chunks: another target's message usually comes within a few, and every entry read costs its payload's read
    local read, stop = 0, false
    repeat
      local ahead = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. claimUpTo, claimUpTo + PARK_AHEAD_MS, 'WITHSCORES', 'LIMIT', read,
        PARK_AHEAD_CHUNK)
      stop = #ahead < 2 * PARK_AHEAD_CHUNK
      if #ahead > 0 then
        local aheadMembers = {}
        for i = 1, #ahead, 2 do aheadMembers[#aheadMembers + 1] = ahead[i] end
        local aheadEnvelopes = redis.call('HMGET', KEYS[3], unpack(aheadMembers))
        for i = 1, #ahead, 2 do
          local member, score = ahead[i], tonumber(ahead[i + 1])
          local envelope = aheadEnvelopes[(i + 1) / 2]
          local target = envelope and parkedTargetOf(envelope)
          if not target or (anyExempt and redis.call('SISMEMBER', KEYS[11], member) == 1) then stop = true; break end
          park(member, score, target)
        end
      end
      read = read + #ahead / 2
    until stop or read >= PARK_AHEAD_MAX
    redis.call('ZADD', KEYS[1], 'XX', unpack(parkedScores))
    for target, index in pairs(byTarget) do redis.call('ZADD', KEYS[10] .. target, unpack(index)) end
  end
  due = kept
end
if #due > 0 then
  result[4] = tonumber(redis.call('HGET', KEYS[5], 'tag')) or -1
  -- one call per command for the whole batch, not one per message: a claim of 500 then stays a few
  -- milliseconds even when Redis is busy, so it never blocks other clients for long (no SLOWLOG entries)
  local members, n = {}, 0
  for i = 1, #due, 2 do n = n + 1; members[n] = due[i] end
  local envelopes = keptEnvelopes or redis.call('HMGET', KEYS[3], unpack(members))
  -- the attempts hash holds only messages that failed a publish: usually it does not exist, and then each member's
  -- conversion to a command argument would be the whole cost of asking it
  local attempts = redis.call('EXISTS', KEYS[4]) == 1 and redis.call('HMGET', KEYS[4], unpack(members)) or {}
  -- likewise: only messages whose score the bridge moved have an original due time
  local originals = redis.call('EXISTS', KEYS[8]) == 1 and redis.call('HMGET', KEYS[8], unpack(members)) or {}
  leaseUntil = uniqueLeaseDeadline(KEYS[2], leaseUntil)
  result[3] = leaseUntil
  local claimer, round = ARGV[3], ARGV[4]
  local record = claimer ~= '' and redis.call('HGET', KEYS[6], claimer)
  -- the deadline as text once: a number argument is formatted again for every message it is passed with; and an index
  -- kept by hand, as #t searches the table's length on every append
  local leases, lease, r = {}, tostring(leaseUntil), #result
  for i = 1, n do
    -- a due member without a payload (evicted, or deleted by hand) is claimed like the others and returned without
    -- an envelope: the bridge dead-letters it as payload-missing rather than drop it unseen
    leases[2 * i - 1] = lease
    leases[2 * i] = members[i]
    result[r + 1] = members[i]
    result[r + 2] = tonumber(due[2 * i])
    result[r + 3] = tonumber(attempts[i] or 0)
    result[r + 4] = envelopes[i] or false
    result[r + 5] = tonumber(originals[i] or -1)
    r = r + 5
  end
  if #leases > 0 then
    redis.call('ZADD', KEYS[2], unpack(leases))
    if claimer ~= '' then
      local sameRound = record and string.sub(record, 1, #round + 1) == round .. ' '
      redis.call('HSET', KEYS[6], claimer, (sameRound and record or round) .. ' ' .. leaseUntil)
      local other = redis.call('HRANDFIELD', KEYS[6])
      if other and other ~= claimer then
        local lastDeadline = tonumber(string.match(redis.call('HGET', KEYS[6], other) or '', '(%d+)$'))
        if not lastDeadline or lastDeadline < now then redis.call('HDEL', KEYS[6], other) end
      end
      redis.call('ZADD', KEYS[7], leaseUntil, claimer .. ' ' .. lease .. ' ' .. now .. ' ' .. due[#due])
      redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. now)
    end
  end
  redis.call('ZREM', KEYS[1], unpack(members))
end
local nextDue = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if nextDue[2] then result[2] = tonumber(nextDue[2]) end
return result
