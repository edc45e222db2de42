--[[
  rescheduleGroup: give up to a batch of the pending messages of one group in this slot one new due time, as
  changeDueTime.lua does for one; a big group takes several calls, so Redis is never held for long.

  Why it is safe: each message is decided and changed in this one step: only a message still in the due set is moved
  (due set and group index together); a message in flight is counted and left alone; an index entry whose message is
  neither is dropped, never acted on, so nothing is brought back. A dry run counts and changes nothing. The new due time
  comes from Redis's clock and the maximum delay applies, as in changeDueTime.lua; the first call turns a delay into a
  due time (dueAt), which the caller passes as "at" to every later call and slot, so the whole group gets one due time.
  The index is walked in three phases, so that moving members cannot make a call skip or repeat one: 0 the members
  already at the new due time (nothing to move), 1 those due before it, 2 those due after it. In phases 1 and 2 a moved
  member leaves the range read, so the next offset counts only the in-flight members left in front.

  KEYS[1] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[3] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)
  KEYS[4] original due   HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua):
                               dropped for the moved messages, as the new due time is the one they are due at

  ARGV[1] group name
  ARGV[2] mode: "delay" (ARGV[3] ms from now) or "at" (ARGV[3] is the due time, epoch ms)
  ARGV[3] value in ms
  ARGV[4] maximum delay in ms (a due time further than this from now is refused)
  ARGV[5] batch: index entries read at most in this call
  ARGV[6] phase: 0, 1 or 2 (the previous call's nextPhase; 0 at first)
  ARGV[7] offset within the phase (the previous call's nextOffset; 0 at first)
  ARGV[8] 1 for a dry run (count, change nothing), 0 to reschedule

  Returns: { rescheduled, inFlight, dueAt, nextPhase, nextOffset }
    rescheduled  messages given the new due time (a dry run: that would be)
    inFlight     messages in flight, left alone
    dueAt        the new due time (epoch ms), or -1 when it lies beyond the maximum delay (nothing changed)
    nextPhase    the phase of the next call; 3 when the group's index is done in this slot
    nextOffset   the offset of the next call
]]
-- @include lib/redisNow
-- @include lib/groups
local index = KEYS[3] .. ARGV[1]
local due
if ARGV[2] == 'delay' then due = now + tonumber(ARGV[3]) else due = tonumber(ARGV[3]) end
if due - now > tonumber(ARGV[4]) then return { 0, 0, -1, 3, 0 } end
local batch, phase, offset = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local dryRun = ARGV[8] == '1'
local ranges = { [0] = { due, due }, [1] = { '-inf', '(' .. due }, [2] = { '(' .. due, '+inf' } }
if phase > 2 then return { 0, 0, due, 3, 0 } end
local range = ranges[phase]
local members = redis.call('ZRANGE', index, range[1], range[2], 'BYSCORE', 'LIMIT', offset, batch)
local moved, inFlight, stale = {}, 0, {}
if #members > 0 then
  local pending = redis.call('ZMSCORE', KEYS[1], unpack(members))
  local leased = redis.call('ZMSCORE', KEYS[2], unpack(members))
  for i, member in ipairs(members) do
    if leased[i] then inFlight = inFlight + 1
    elseif pending[i] then moved[#moved + 1] = member
    else stale[#stale + 1] = member end
  end
end
local nextOffset
if dryRun then
  nextOffset = offset + #members
elseif phase == 0 then
  nextOffset = offset + #members - #stale
else
  nextOffset = offset + inFlight
end
if not dryRun then
  if #stale > 0 then redis.call('ZREM', index, unpack(stale)) end
  if #moved > 0 then
    local scored = {}
    for i, member in ipairs(moved) do
      scored[2 * i - 1] = due
      scored[2 * i] = member
    end
    redis.call('ZADD', KEYS[1], 'XX', unpack(scored))
    redis.call('ZADD', index, 'XX', unpack(scored))
    if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('HDEL', KEYS[4], unpack(moved)) end
  end
end
local nextPhase = phase
if #members < batch then
  nextPhase = phase + 1
  nextOffset = 0
end
return { #moved, inFlight, due, nextPhase, nextOffset }
