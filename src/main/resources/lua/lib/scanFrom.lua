--[[
  scanFrom (a fragment, included by the list scripts): one bounded page of a sorted set in its own order,
  from a position, through a filter. The position and the "finished" flag let the caller go on with a
  next call that misses nothing, however little the filter matches.

    scanFrom(key, afterScore, afterMember, inclusive, before, limit, budget, pick)
      afterScore, afterMember  start after this position ('-inf' and '' for the first member; lib/rankAfter)
      inclusive                true to start at the position's member itself, if it is there
      before                   only members scored below this ('+inf' for no bound)
      limit                    at most this many picked members
      budget                   examine at most this many members
      pick(member, score)      the fields to list for a member (a table without nils), or nil to skip it

  Returns: { finished, lastScore, lastMember, the fields of each picked member, in order }
    finished                 1 when nothing more is in range after the last examined member
    lastScore, lastMember    position of the last member examined (afterScore, afterMember if none)
]]
-- @include lib/rankAfter
local function scanFrom(key, afterScore, afterMember, inclusive, before, limit, budget, pick)
  local rank = 0
  if afterScore ~= '-inf' then rank = rankAfter(key, afterScore, afterMember, inclusive) end
  local result = { 0, afterScore, afterMember }
  local found, examined = 0, 0
  while found < limit and examined < budget do
    local page = redis.call('ZRANGE', key, rank, rank + math.min(100, budget - examined) - 1, 'WITHSCORES')
    if #page == 0 then
      result[1] = 1
      return result
    end
    for i = 1, #page, 2 do
      local member, score = page[i], tonumber(page[i + 1])
      if before ~= '+inf' and score >= tonumber(before) then
        result[1] = 1
        return result
      end
      examined, rank = examined + 1, rank + 1
      result[2], result[3] = score, member
      local fields = pick(member, score)
      if fields then
        for _, field in ipairs(fields) do result[#result + 1] = field end
        found = found + 1
        if found == limit then return result end
      end
    end
  end
  return result
end
