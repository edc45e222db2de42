--[[
  countPending: how many of a slot's pending messages fall due in a range, and how many of those match
  a target glob, for the totals of the admin API's listing. Changes nothing.

  Why it is safe: read-only, and bounded: the range is counted by one ZCOUNT (O(log n)); the target
  is read from at most ARGV[4] envelopes' heads (lib/expandNames, without copying their bodies). When
  the range holds more messages than that, they are sampled at evenly spaced ranks (one O(log n)
  ZRANGE each) and the caller estimates the matching count from the sample; otherwise every message
  in range is read and the count is exact.

  KEYS[1] due set   ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] payloads  HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[3] names     HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)

  ARGV[1] only messages due at or after this time (epoch ms), or '-inf'
  ARGV[2] only messages due before this time (epoch ms, exclusive), or '+inf'
  ARGV[3] a target glob (lib/globMatch), '' for every target
  ARGV[4] read the target of at most this many messages

  Returns: { inRange, examined, matching }
    inRange   pending messages due in the range
    examined  of these, how many had their target read (inRange when ARGV[3] is '' or all were read)
    matching  of the examined, how many have a target that matches (an envelope gone or unreadable
              does not)
]]
-- @include lib/expandNames
-- @include lib/globMatch
local low = ARGV[1]
local high = ARGV[2] == '+inf' and '+inf' or '(' .. ARGV[2]
local inRange = redis.call('ZCOUNT', KEYS[1], low, high)
if ARGV[3] == '' or inRange == 0 then return { inRange, inRange, inRange } end

local first = 0
if low ~= '-inf' then first = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. low) end
local budget = tonumber(ARGV[4])
local names = namesExpander(nameCodes(KEYS[3]))
local wanted = globMatcher(ARGV[3])
local examined, matching = 0, 0

local function read(member)
  examined = examined + 1
  local envelope = redis.call('HGET', KEYS[2], member)
  if envelope and wanted(names.target(envelope)) then matching = matching + 1 end
end

if inRange <= budget then
  local last = first + inRange - 1
  for start = first, last, 100 do
    for _, member in ipairs(redis.call('ZRANGE', KEYS[1], start, math.min(start + 99, last))) do read(member) end
  end
else
  for i = 0, budget - 1 do
    local rank = first + math.floor((i + 0.5) * inRange / budget)
    read(redis.call('ZRANGE', KEYS[1], rank, rank)[1])
  end
end
return { inRange, examined, matching }
