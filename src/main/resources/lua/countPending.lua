--[[
  countPending: how many of a slot's pending messages fall due in a range, and how many of those match
  a target glob, for the totals of the admin API's listing. Changes nothing.

  Why it is safe: read-only, and bounded: the range is counted by one ZCOUNT (O(log n)); the target
  is read from at most ARGV[4] envelopes' heads (lib/expandNames, without copying their bodies). When
  the range holds more messages than that, they are sampled at evenly spaced ranks (one O(log n)
  ZRANGE each) and the caller estimates the matching count from the sample; otherwise every message
  in range is read and the count is exact. With a group (ARGV[5]) the candidates are the group's index entries in
  the range (its score: the due time as scheduled), each read to see that it is pending and matches the target.

  KEYS[1] due set   ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] payloads  HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[3] names     HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[4] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)

  ARGV[1] only messages due at or after this time (epoch ms), or '-inf'
  ARGV[2] only messages due before this time (epoch ms, exclusive), or '+inf'
  ARGV[3] a target glob (lib/globMatch), '' for every target
  ARGV[4] read the target of at most this many messages
  ARGV[5] only the messages of this group (its index), '' for every message

  Returns: { inRange, examined, matching, candidates }
    inRange     pending messages due in the range
    examined    of the candidates, how many were read (all of them when ARGV[3] and ARGV[5] are '' or all were read)
    matching    of the examined, how many are pending and have a target that matches (an envelope gone or unreadable
                does not)
    candidates  the messages the examined were drawn from: inRange, or the group's index entries in the range
]]
-- @include lib/expandNames
-- @include lib/globMatch
local low = ARGV[1]
local high = ARGV[2] == '+inf' and '+inf' or '(' .. ARGV[2]
local inRange = redis.call('ZCOUNT', KEYS[1], low, high)
local counted, grouped = KEYS[1], ARGV[5] ~= ''
if grouped then counted = KEYS[4] .. ARGV[5] end
local candidates = inRange
if grouped then candidates = redis.call('ZCOUNT', counted, low, high) end
if (ARGV[3] == '' and not grouped) or candidates == 0 then return { inRange, candidates, candidates, candidates } end

local first = 0
if low ~= '-inf' then first = redis.call('ZCOUNT', counted, '-inf', '(' .. low) end
local budget = tonumber(ARGV[4])
local names = namesExpander(nameCodes(KEYS[3]))
local wanted = ARGV[3] ~= '' and globMatcher(ARGV[3]) or nil
local examined, matching = 0, 0

local function read(member)
  examined = examined + 1
  if grouped and not redis.call('ZSCORE', KEYS[1], member) then return end
  if not wanted then
    matching = matching + 1
    return
  end
  local envelope = redis.call('HGET', KEYS[2], member)
  if envelope and wanted(names.target(envelope)) then matching = matching + 1 end
end

if candidates <= budget then
  local last = first + candidates - 1
  for start = first, last, 100 do
    for _, member in ipairs(redis.call('ZRANGE', counted, start, math.min(start + 99, last))) do read(member) end
  end
else
  for i = 0, budget - 1 do
    local rank = first + math.floor((i + 0.5) * candidates / budget)
    read(redis.call('ZRANGE', counted, rank, rank)[1])
  end
end
return { inRange, examined, matching, candidates }
